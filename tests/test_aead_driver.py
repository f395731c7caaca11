"""The aead chapter's driver (cipherlab.experiments.aead.driver): a row that states only the direction of another
row's statistic gets that row's evidence, every reading."""
from cipherlab.analysis import verdicts as V
from cipherlab.experiments.aead import driver


def test_a_direction_row_takes_every_reading_of_its_source_row():
    src = "003-f9-aes-tp-climbs-enc"
    evs = [V.Evidence(src, estimate=70.0, low=60.0, high=80.0, unit="%", reading="protocol=warm"),
           V.Evidence(src, estimate=-5.0, low=-9.0, high=-1.0, unit="%", reading="protocol=cold"),
           V.Evidence("003-other", estimate=1.0, low=0.0, high=2.0, unit="%")]
    rows = driver.direction_rows(evs)
    assert [(e.claim_id, e.reading, e.estimate) for e in rows] == [
        ("003-t4-aes-improves", "protocol=warm", 70.0), ("003-t4-aes-improves", "protocol=cold", -5.0)]


def test_the_direction_row_is_decided_on_every_reading_and_fails_where_one_reverses():
    claims = V.load_claims()
    claims = claims[claims["claim_id"] == "003-t4-aes-improves"]
    assert claims.iloc[0]["rule"] == "ordering" and not claims.iloc[0]["covered_by"]

    def verdict(cold_lo, cold_hi):
        evs = driver.direction_rows([
            V.Evidence("003-f9-aes-tp-climbs-enc", estimate=70.0, low=60.0, high=80.0, unit="%",
                       size="5000000 B vs 100000 B", reading="protocol=warm", statistic="size_change"),
            V.Evidence("003-f9-aes-tp-climbs-enc", estimate=(cold_lo + cold_hi) / 2, low=cold_lo, high=cold_hi,
                       unit="%", size="5000000 B vs 100000 B", reading="protocol=cold", statistic="size_change")])
        return V.decide_all(claims, V.evidence_frame(evs).assign(chapter="aead")).iloc[0]["verdict"]
    assert verdict(90.0, 130.0) == "reproduced"
    assert verdict(-30.0, -10.0) == "contradicted"
