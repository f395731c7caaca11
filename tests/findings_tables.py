"""Small synthetic tables of the shape the findings page reads (the security chapter's S-box and attack
tables, the AES-2SBox speed-up table), shared by the page's tests and the chapters' findings tests."""
import pandas as pd

SBOX = pd.DataFrame({"sbox": ["rijndael", "second (xor-index, 7F)", "aes-2sbox round: S2(S(x))"],
                     "nonlinearity": [112, 0, 104], "differential_uniformity": [4, 256, 6],
                     "algebraic_degree": [7, 1, 7]})

ATTACK = pd.DataFrame({
    "cipher": ["aes", "aes-2sbox", "aes-2sbox", "maes-1"],
    "mode": ["ecb", "ecb", "cbc", "ecb"], "target": ["image", "image", "text", "image"],
    "queries": [257, 257, 257, 257], "bytes": [1000, 1000, 300, 1000],
    "bytes_recovered": [3, 1000, 300, 1000], "byte_local": [False, True, True, True],
    "match_fraction_decoded": [0.0041, 1.0, 1.0, 1.0], "chance": [1 / 256] * 4})

SPEED = pd.DataFrame({
    "paper": ["000"] * 5, "operation": ["encrypt", "decrypt", "encrypt", "decrypt", "encrypt"],
    "style": ["reference", "reference", "table", "table", "aesni"],
    "size": ["2048 B"] * 5, "published_pct": [22.986, 109.79, 22.986, 109.79, 22.986],
    "ours_pct": [18.4, 40.1, 2.8, 0.85, None], "low_pct": [17.1, 36.8, 0.55, -1.65, None],
    "high_pct": [20.0, 42.6, 6.7, 3.36, None], "aa_low_pct": [-1.9, -5.3, -2.4, -1.2, None],
    "aa_high_pct": [0.6, -1.5, 3.4, 3.8, None]})
