"""Tests of cipherlab.experiments.security.views."""

from __future__ import annotations

import pandas as pd
import pytest

from cipherlab.experiments.security import attack
from cipherlab.experiments.security import sbox_properties as sp
from cipherlab.ciphers.sboxes import rijndael_sbox, second_sbox


def test_views_keep_the_key_properties_in_the_short_view():
    from cipherlab.experiments.security import views

    props = sp.sbox_property_table({"rijndael": rijndael_sbox()})
    html = str(views.sbox_properties_view(props))
    short = html.split("<details>")[0]
    assert "algebraic degree" in short and "nonlinearity" in short and "<details>" in html
    assert ">112<" in short and ">7<" in short           # Rijndael: nonlinearity 112, degree 7
    table, _, _ = attack.attack_table({"t": b"x" * 40}, ciphers=("aes", "maes-1"), seed=1)
    short = str(views.attack_view(table)).split("<details>")[0]
    assert "match fraction decoded" in short and "chance p value" in short and "unknown bytes" not in short


def test_spread_view_has_one_row_per_property_and_p_values_that_underflow_say_so():
    from cipherlab.experiments.security import views

    spread = pd.DataFrame({"property": ["nonlinearity", "nonlinearity", "fixed_points"],
                           "min": [0.0, 112.0, 0.0], "max": [0.0, 112.0, 8.0],
                           "construction": ["xor-index", "xor-sbox", "xor-index"]})
    html = str(views.sbox_spread_view(spread))
    assert html.count("<tr>") == 3 and ">0 .. 8<" in html and ">112<" in html and ">—<" in html
    assert views.p_value(0.0) == "< 1e-300" and views.p_value(0.25) == "0.25"


def test_sbox_findings_text_is_written_from_the_table():
    from cipherlab.experiments.security import views

    boxes = {"rijndael": rijndael_sbox(),
             "second (xor-index, 7F)": second_sbox(0x7F, "xor-index")[0],
             "aes-2sbox round: S2(S(x)) (xor-index, 7F)": sp.compose(second_sbox(0x7F, "xor-index")[0], rijndael_sbox()),
             "aes-2sbox round: S2(S(x)) (xor-sbox, 7F)": sp.compose(second_sbox(0x7F, "xor-sbox")[0], rijndael_sbox())}
    props = sp.sbox_property_table(boxes)
    text = views.sbox_findings_text(props, 0x7F)
    assert "nonlinearity 0, algebraic degree 1" in text and "**affine**" in text
    assert "exactly those of Rijndael's S-box" in text
    changed = props.copy()
    changed.loc[changed.sbox == "second (xor-index, 7F)", "algebraic_degree"] = 7
    assert "affine" not in views.sbox_findings_text(changed, 0x7F).split(".")[0]
    with pytest.raises(ValueError, match="lacks"):
        views.sbox_findings_text(props, 0x01)
