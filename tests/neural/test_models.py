"""The weights file: its matrices packed to int8 with a scale a column, read back as the networks that were fitted."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from cinch import Deal, Rules, Seat
from cinch.neural import models
from cinch.neural.features import FEATURES, KINDS, encode
from cinch.study.learning import new_network


@settings(max_examples=60, deadline=None)
@given(arrays(np.float32, st.tuples(st.integers(1, 12), st.integers(1, 6)),
              elements=st.floats(-4, 4, width=32)))
def test_a_packed_matrix_keeps_each_weight_to_within_a_254th_of_its_columns_largest(w):
    packed = models.pack("w", w)
    assert packed["w"].dtype == np.int8 and packed["w" + models.SCALE].shape == (w.shape[1],)
    back = models.unpack(packed, "w")
    assert back.dtype == np.float32 and back.shape == w.shape
    largest = np.abs(w).max(axis=0)
    # a 254th of the column's largest, and float16's rounding of the scale (a 2048th)
    assert (np.abs(back - w) <= largest / 254 + largest / 2048 + 1e-12).all()


def test_vectors_stay_float16_and_old_float16_files_still_read():
    b = np.array([0.5, -1.25, 3.0], dtype=np.float32)
    assert set(models.pack("b", b)) == {"b"} and models.pack("b", b)["b"].dtype == np.float16
    old = {"w": np.array([[1.5, -2.0]], dtype=np.float16)}
    assert models.unpack(old, "w").tolist() == [[1.5, -2.0]]


def test_saved_networks_play_as_the_fitted_ones(tmp_path):
    rng = np.random.default_rng(5)
    networks = {kind: new_network(kind, (64, 32), rng, 16) for kind in KINDS}
    for net in networks.values():  # choices made by the trunk and the heads, not by the heuristic's input
        net.skip[:] = 0
        net.policy[0][...] *= 30
    path = models.save(tmp_path, networks, {})
    loaded = models.Models.load(tmp_path)
    assert np.load(path)["play/trunk0/w"].dtype == np.int8
    x = rng.normal(size=(200, FEATURES)).astype(np.float32).clip(0, 1)
    for kind, net in networks.items():
        fitted, read = net.forward(x)[0], loaded.networks[kind].forward(x)[0]
        assert np.abs(fitted - read).max() < 0.05 * max(1.0, np.abs(fitted).max()), kind
    for seed in range(20):  # a real view: the choice read back is the fitted one's, or one it scores as high
        view = Deal.shuffled(Rules.preset("pagat"), Seat.W, rng=seed).view(Seat.N)
        e = encode(view)
        fitted, read = (n.forward(e.x[None, :])[0][0] for n in (networks[e.kind], loaded.networks[e.kind]))
        assert fitted[np.argmax(read)] >= fitted.max() - 0.05 * np.ptp(fitted)
