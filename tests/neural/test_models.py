"""The weights file: its matrices packed to int8 with a scale a column, read back as the networks that were fitted."""

from __future__ import annotations

import numpy as np
import pytest
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


@pytest.mark.parametrize("kind, sizes, slot_units",
                         [("play", (64, 32), 16), ("bid", (32,), 0), ("keep", (48, 24, 12), 8)])
def test_a_committee_answers_as_the_mean_of_its_networks(kind, sizes, slot_units):
    rng = np.random.default_rng(7)
    members = [new_network(kind, sizes, rng, slot_units) for _ in range(5)]
    for net in members:  # every weight and bias its own, so that a member mixed up with another shows
        for a in net.arrays().values():
            a[...] = rng.standard_normal(a.shape).astype(np.float32) * 0.3
    committee = models.Committee(members)
    sparse = np.zeros((1, FEATURES), dtype=np.float32)  # a view's features: a few set (the first layer's short cut)
    sparse[0, rng.choice(FEATURES, 140, replace=False)] = rng.uniform(0.1, 2.0, 140)
    dense = rng.standard_normal((6, FEATURES)).astype(np.float32)
    for x in (sparse, dense):
        alone = [net.forward(x) for net in members]
        for i, together in enumerate(committee.forward(x)):
            mean = np.mean([a[i] for a in alone], axis=0)
            assert together.shape == mean.shape
            np.testing.assert_allclose(together, mean, rtol=1e-4, atol=1e-4 * float(np.abs(mean).max()))


@pytest.mark.parametrize("other, words", [(((16,), 0), "slot head"), (((24,), 4), "same layers")])
def test_a_committee_of_networks_unlike_each_other_is_refused(other, words):
    rng = np.random.default_rng(8)
    committee = models.Committee([new_network("play", (16,), rng, 4), new_network("play", other[0], rng, other[1])])
    with pytest.raises(ValueError, match=words):
        committee.forward(np.zeros((1, FEATURES), dtype=np.float32))
