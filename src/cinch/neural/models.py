"""The learned networks, run in plain NumPy from the weights shipped in the package.

One network per kind of decision (:data:`~cinch.neural.features.KINDS`: bid, trump, keep,
play), each a small multilayer perceptron over the view's features
(:func:`~cinch.neural.features.encode`) with three heads:

- **policy**: a score for every action slot; the legal ones are compared by softmax (a keep
  scores each card: above zero, the network would keep it);
- **value**: the deal's expected score change for the deciding side and for the other, in
  fourteenths (the points of a deal): :meth:`Models.value` gives ours less theirs, in points,
  and :meth:`Models.equity` the chance to win the match from the view's score through
  :func:`cinch.bots.equity.race`;
- **card locations**: for every card the seat has not seen, the chance that it lies with the
  left-hand opponent, the partner, the right-hand opponent, or nowhere in a hand (the stock,
  the discards) (:meth:`Models.card_locations`).  A place the view rules out (a shown void, a
  hand with no cards, more hands than unseen cards) gets none.

The weights file (``weights/models.npz``: each matrix int8 with a scale a column, :func:`pack`)
and its manifest (``weights/manifest.json``: the data's seed and size, the commit, the command,
the validation figures) are made by ``cinch train`` (:mod:`cinch.study.learning`); the manifest
also holds the signature of the features they were trained on, and weights of other features
are refused in one line.

>>> from cinch import Deal, Rules, Seat
>>> models = Models.load()
>>> view = Deal.shuffled(Rules.preset("pagat"), Seat.W, rng=3).view(Seat.N)
>>> models.choose(view) in view.legal
True
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

import numpy as np

from cinch.actions import Action, Keep
from cinch.bots.equity import race
from cinch.cards import CardSet
from cinch.errors import CinchError
from cinch.keep import KeepOptions
from cinch.neural.features import (
    ACTION_SLOTS,
    CHANNELS,
    FEATURES,
    GLOBALS,
    KINDS,
    LOCATIONS,
    PRESETS,
    SLOT_INPUTS,
    Encoded,
    action_slot,
    encode,
    heuristic_slot,
    keep_from_scores,
    slot_action,
    slot_inputs,
)
from cinch.view import SeatView

__all__ = ["FORMAT", "MANIFEST", "WEIGHTS", "WEIGHTS_DIR", "Committee", "Models", "Network", "SlotHead",
           "WeightsError", "pack", "signature", "unpack"]

FORMAT = "cinch-neural/1"
WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
WEIGHTS = "models.npz"
MANIFEST = "manifest.json"
VALUE_SCALE = 14.0  # the value head's unit: a deal's points
MASKED = -1e9
SCALE = ".scale"  # the suffix of a packed matrix's column scales in the weights file


class WeightsError(CinchError):
    """Weights that cannot be used: missing, damaged, or trained on other features."""


def signature() -> str:
    """A digest of the feature layout and the action slots: weights trained on another layout are refused."""
    layout = json.dumps([CHANNELS, GLOBALS, FEATURES, ACTION_SLOTS, LOCATIONS, PRESETS, KINDS, SLOT_INPUTS])
    return hashlib.sha256(layout.encode()).hexdigest()[:16]


@dataclass
class Network:
    """One kind's network: the trunk's layers (ReLU after each), then the three heads; the policy's scores
    also add each slot's own inputs, weighted by ``skip`` (:func:`~cinch.neural.features.slot_inputs`), and
    where it has one, a *slot head*: one small layer shared by every slot, reading the slot's own inputs, its
    place and the trunk's last layer, so that what makes a card good to play is learnt once for every card.
    """

    kind: str
    trunk: list[tuple[np.ndarray, np.ndarray]]
    policy: tuple[np.ndarray, np.ndarray]
    value: tuple[np.ndarray, np.ndarray]
    location: tuple[np.ndarray, np.ndarray]
    skip: np.ndarray
    slot_head: SlotHead | None = None

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Policy scores (B, slots), values (B, 2) and location scores (B, 52, 4) for features ``x`` (B, FEATURES)."""
        _, policy, value, location = self.layers(x)
        return policy, value, location

    def layers(self, x: np.ndarray) -> tuple[list[np.ndarray], np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`forward` with every layer's output kept, as the trainer's backward pass needs them: the
        input, each trunk layer's, then the slot head's units where there is one."""
        hs = [x]
        h = x
        for w, b in self.trunk:
            h = np.maximum(h @ w + b, 0)
            hs.append(h)
        own = slot_inputs(self.kind, x)
        policy = h @ self.policy[0] + self.policy[1] + own @ self.skip
        if self.slot_head is not None:
            units = self.slot_head.hidden(own, h)
            policy = policy + units @ self.slot_head.out
            hs.append(units)
        value = h @ self.value[0] + self.value[1]
        location = (h @ self.location[0] + self.location[1]).reshape(len(x), 52, len(LOCATIONS))
        return hs, policy, value, location

    def arrays(self, prefix: str = "") -> dict[str, np.ndarray]:
        """The parameters by name, as the weights file holds them (under ``prefix``, default the kind)."""
        at = prefix or self.kind
        out = {}
        for i, (w, b) in enumerate(self.trunk):
            out[f"{at}/trunk{i}/w"], out[f"{at}/trunk{i}/b"] = w, b
        for head in ("policy", "value", "location"):
            w, b = getattr(self, head)
            out[f"{at}/{head}/w"], out[f"{at}/{head}/b"] = w, b
        out[f"{at}/skip"] = self.skip
        if self.slot_head is not None:
            out.update({f"{at}/slot/{k}": v for k, v in self.slot_head.arrays().items()})
        return out

    @classmethod
    def from_arrays(cls, kind: str, arrays: Any, prefix: str = "") -> Network:
        at = prefix or kind

        def pair(name: str) -> tuple[np.ndarray, np.ndarray]:
            return unpack(arrays, f"{at}/{name}/w"), unpack(arrays, f"{at}/{name}/b")

        layers: list[tuple[np.ndarray, np.ndarray]] = []
        while f"{at}/trunk{len(layers)}/w" in arrays:
            layers.append(pair(f"trunk{len(layers)}"))
        skip = unpack(arrays, f"{at}/skip")
        head = None
        if f"{at}/slot/own" in arrays:
            head = SlotHead(*(unpack(arrays, f"{at}/slot/{k}") for k in SlotHead.NAMES))
        return cls(kind, layers, pair("policy"), pair("value"), pair("location"), skip, head)

    @property
    def size(self) -> int:
        return sum(a.size for a in self.arrays().values())


@dataclass
class SlotHead:
    """The policy's shared slot layer: each slot's hidden units are ReLU(its own inputs @ ``own`` + its
    place's row of ``place`` + the trunk's last layer @ ``trunk`` + ``bias``), and its score adds those
    units @ ``out``."""

    own: np.ndarray  # (SLOT_INPUTS, K)
    place: np.ndarray  # (slots, K)
    trunk: np.ndarray  # (last trunk width, K)
    bias: np.ndarray  # (K,)
    out: np.ndarray  # (K,)

    NAMES = ("own", "place", "trunk", "bias", "out")

    def hidden(self, own: np.ndarray, h: np.ndarray) -> np.ndarray:
        """(B, slots, K): the slots' hidden units from their inputs ``own`` (B, slots, SLOT_INPUTS) and the
        trunk's last layer ``h`` (B, width)."""
        return np.maximum(own @ self.own + self.place + (h @ self.trunk + self.bias)[:, None, :], 0)

    def arrays(self) -> dict[str, np.ndarray]:
        return {k: getattr(self, k) for k in self.NAMES}


class Committee:
    """Networks of one kind fitted alike from different seeds, answering as one: each output is the mean of
    theirs.  One fit's strength varies with its seed (two seeds of the play's network were 0.35 a deal apart
    against the heuristic); the mean of several varies less and plays better than most of them alone.

    In the weights file the first member is stored as a lone network would be (``play/...``), the others
    under ``play#1/...``, ``play#2/...``.
    """

    def __init__(self, members: Sequence[Network]):
        if not members:
            raise ValueError("a committee needs at least one network")
        self.kind = members[0].kind
        self.members = list(members)
        self._stacked: _Stacked | None = None  # the members side by side, made on the first forward pass

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """As :meth:`Network.forward`: the members' policy scores, values and location scores, averaged."""
        if len(self.members) == 1:
            return self.members[0].forward(x)
        if self._stacked is None:
            self._stacked = _Stacked(self.members)
        return self._stacked.forward(x)

    def layers(self, x: np.ndarray) -> tuple[list[np.ndarray], np.ndarray, np.ndarray, np.ndarray]:
        """The outputs as :meth:`Network.layers` gives them, for validation (no hidden layers to train)."""
        policy, value, location = self.forward(x)
        return [x], policy, value, location

    def arrays(self) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for i, m in enumerate(self.members):
            out.update(m.arrays(member_prefix(self.kind, i)))
        return out

    @classmethod
    def from_arrays(cls, kind: str, arrays: Any) -> Committee:
        members = [Network.from_arrays(kind, arrays)]
        while f"{member_prefix(kind, len(members))}/skip" in arrays:
            members.append(Network.from_arrays(kind, arrays, member_prefix(kind, len(members))))
        return cls(members)

    @property
    def size(self) -> int:
        return sum(m.size for m in self.members)


SPARSE = 4  # the stacked first layer reads only the weights' rows of the features set when under a quarter are


class _Stacked:
    """A committee's members as one network of their widths side by side: a layer is one matrix product
    for all of them (the first layer's weights in one matrix, the later ones' as a stack of blocks), and
    the heads, being linear, are averaged inside one product each.  The same answers as each member's
    forward pass averaged, to float rounding, in a fraction of the time (the passes of eight small
    networks were mostly NumPy's per-call overhead: 0.45 ms a decision)."""

    def __init__(self, members: Sequence[Network]):
        n = len(members)
        first = members[0]
        if any([w.shape for w, _ in m.trunk] != [w.shape for w, _ in first.trunk] for m in members):
            raise ValueError("a committee's networks must all have the same layers")
        self.kind = first.kind
        self.count = n
        self.w1 = np.concatenate([m.trunk[0][0] for m in members], axis=1)
        self.b1 = np.concatenate([m.trunk[0][1] for m in members])
        # Each later layer as (members, in, out) blocks, its biases (members, 1, out): one product for all.
        self.deeper = [(np.stack([m.trunk[i][0] for m in members]),
                        np.stack([m.trunk[i][1] for m in members])[:, None, :]) for i in range(1, len(first.trunk))]

        def mean_head(name: str) -> tuple[np.ndarray, np.ndarray]:
            ws, bs = zip(*(getattr(m, name) for m in members))
            return np.concatenate(ws, axis=0) / n, np.mean(bs, axis=0)

        self.policy, self.value, self.location = mean_head("policy"), mean_head("value"), mean_head("location")
        self.skip = np.mean([m.skip for m in members], axis=0)
        heads = [m.slot_head for m in members]
        self.slot: tuple[np.ndarray, ...] | None = None
        if all(h is not None for h in heads):
            hs = cast("list[SlotHead]", heads)
            self.slot = (np.concatenate([h.own for h in hs], axis=1), np.concatenate([h.place for h in hs], axis=1),
                         np.stack([h.trunk for h in hs]), np.concatenate([h.bias for h in hs]),
                         np.concatenate([h.out for h in hs]) / n)
        elif any(h is not None for h in heads):
            raise ValueError("a committee's networks must all have a slot head or none")

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        b, n = len(x), self.count
        used = np.flatnonzero(x.any(axis=0))
        # A view's features are mostly zeros (about 140 of 1,673 set): the first layer reads only the rows of
        # its weights that meet a feature set, a third of the time of the whole product.
        first = x[:, used] @ self.w1[used] if len(used) * SPARSE < x.shape[1] else x @ self.w1
        h = np.maximum(first + self.b1, 0).reshape(b, n, -1).transpose(1, 0, 2)  # (members, B, width)
        for w, bias in self.deeper:
            h = np.maximum(h @ w + bias, 0)
        side = h.transpose(1, 0, 2).reshape(b, -1)  # (B, members x width)
        own = slot_inputs(self.kind, x)
        policy = side @ self.policy[0] + self.policy[1] + own @ self.skip
        if self.slot is not None:
            own_w, place, trunk, bias, out = self.slot
            from_trunk = (h @ trunk).transpose(1, 0, 2).reshape(b, -1) + bias  # (B, members x K)
            policy = policy + np.maximum(own @ own_w + place + from_trunk[:, None, :], 0) @ out
        value = side @ self.value[0] + self.value[1]
        location = (side @ self.location[0] + self.location[1]).reshape(b, 52, len(LOCATIONS))
        return policy, value, location


def member_prefix(kind: str, i: int) -> str:
    """Where the ``i``-th network of a kind's committee lies in the weights file."""
    return kind if i == 0 else f"{kind}#{i}"


def pack(name: str, a: np.ndarray) -> dict[str, np.ndarray]:
    """An array as the weights file holds it: a matrix as int8 with a float16 scale for each column (under
    ``name`` + :data:`SCALE`), anything else as float16.  A column's weights are then kept to within
    1/254 of its largest: on held-out decisions the shipped play then picks another card than float16's
    in one in 700 (docs/learning.md), at under half the size, so that the 5 MB hold twice the networks.

    >>> w = np.array([[1.0, -0.5], [0.25, 2.0]])
    >>> packed = pack("w", w)
    >>> packed["w"].tolist()
    [[127, -32], [32, 127]]
    >>> bool(np.abs(unpack(packed, "w") - w).max() <= 2.0 / 254)
    True
    """
    a = a.astype(np.float16)  # first: weights fitted and weights read back from float16 pack alike
    if a.ndim != 2:
        return {name: a}
    a = a.astype(np.float32)
    scale = (np.abs(a).max(axis=0) / 127).astype(np.float16)
    scale[scale == 0] = 1
    q = np.clip(np.rint(a / scale.astype(np.float32)), -127, 127).astype(np.int8)
    return {name: q, name + SCALE: scale}


def unpack(arrays: Any, name: str) -> np.ndarray:
    """The float32 array ``name`` of a weights file, as :func:`pack` stored it (or as plain float16)."""
    a = np.asarray(arrays[name])
    if a.dtype == np.int8:
        return a.astype(np.float32) * np.asarray(arrays[name + SCALE], dtype=np.float32)
    return a.astype(np.float32)


def softmax(z: np.ndarray, axis: int = -1) -> np.ndarray:
    z = z - z.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


class Models:
    """The four networks and their manifest; every question takes a seat's view, never the full state."""

    def __init__(self, networks: Mapping[str, Network | Committee], manifest: dict[str, Any]):
        self.networks = {kind: net if isinstance(net, Committee) else Committee([net])
                         for kind, net in networks.items()}
        self.manifest = manifest

    @classmethod
    def load(cls, folder: str | os.PathLike[str] | None = None) -> Models:
        """The weights in ``folder`` (default: those shipped in the package), read once per folder."""
        return _load(str(Path(folder).resolve()) if folder is not None else str(WEIGHTS_DIR))

    # ---- the policy ---------------------------------------------------------------------------
    def evaluate(self, view: SeatView, encoded: Encoded | None = None) -> tuple[Encoded, np.ndarray, np.ndarray,
                                                                                   np.ndarray]:
        """The view encoded, and its network's policy scores, values and location scores (one row each)."""
        e = encoded if encoded is not None else encode(view)
        policy, value, location = self.networks[e.kind].forward(e.x[None, :])
        return e, policy[0], value[0], location[0]

    def policy(self, view: SeatView) -> list[tuple[Action, float]]:
        """Each legal action with the policy's probability (a keep: each card of the pool with the chance
        that the network keeps it, as a one-card keep), most likely first."""
        e, scores, _, _ = self.evaluate(view)
        if e.kind == "keep":
            return [(slot_action_keep(e, int(i)), float(1 / (1 + np.exp(-scores[i])))) for i in np.flatnonzero(e.legal)]
        probs = _legal_softmax(scores, e.legal)
        legal = list(view.legal)
        out = [(slot_action(e, int(i), legal), float(probs[i])) for i in np.flatnonzero(e.legal)]
        return sorted(out, key=lambda pair: -pair[1])

    def scores(self, view: SeatView, actions: Sequence[Action]) -> list[float]:
        """The policy's score of each of ``actions`` (bids, a trump or plays of ``view``; 0 for one it has no
        slot for).  In the play a score is the expert's value of the card less a constant, as the network
        learnt it: points of the deal, or of the chance to win the match (about one per point at 0-0)."""
        e, scores, _, _ = self.evaluate(view)
        slots = [action_slot(e.kind, a, e.cards, e.suits) for a in actions]
        return [float(scores[slot]) if slot is not None else 0.0 for slot in slots]

    def choose(self, view: SeatView, margin: float = 0.0) -> Action:
        """The action the policy likes best (a keep: the cards it scores above zero, within the rule); with a
        ``margin``, the heuristic's bid, trump or card unless another scores that much more."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        e, scores, _, _ = self.evaluate(view)
        if e.kind == "keep":
            assert isinstance(legal, KeepOptions)
            return keep_from_scores(e, scores, legal)
        masked = np.where(e.legal, scores, MASKED)
        best = int(np.argmax(masked))
        if margin > 0:
            h = heuristic_slot(e)
            if h >= 0 and e.legal[h] and masked[best] - masked[h] < margin:
                best = h
        return slot_action(e, best, list(legal))

    # ---- the value ----------------------------------------------------------------------------
    def value(self, view: SeatView) -> float:
        """The deal's expected score change for the view's side less the other side's, in points."""
        _, _, v, _ = self.evaluate(view)
        return float(v[0] - v[1]) * VALUE_SCALE

    def changes(self, view: SeatView) -> tuple[float, float]:
        """The deal's expected score change for the view's side and for the other, in points."""
        _, _, v, _ = self.evaluate(view)
        return float(v[0]) * VALUE_SCALE, float(v[1]) * VALUE_SCALE

    def equity(self, view: SeatView) -> float | None:
        """The chance that the view's side wins the match, from its score and the deal's expected changes
        (the race model of :mod:`cinch.bots.equity` at the expected score after the deal); None without a score."""
        if view.score is None or len(view.score) != 2:
            return None
        ours, theirs = self.changes(view)
        us = int(view.seat.team)
        target = view.target if view.target is not None else view.rules.target
        after_us, after_them = view.score[us] + ours, view.score[1 - us] + theirs
        if max(after_us, after_them) >= target:
            return 1.0 if after_us > after_them else 0.0 if after_them > after_us else 0.5
        return race(round(after_us), round(after_them), target, view.rules.total_points)

    # ---- where the cards are -----------------------------------------------------------------
    def card_locations(self, view: SeatView) -> np.ndarray:
        """For each card (rows by card index, 0 = AS ... 51 = 2C), the chance that it lies with each seat
        (columns by seat, N E S W) or in no hand (the last column).  Rows of cards the seat has seen are 0;
        its own column is 0."""
        e, _, _, scores = self.evaluate(view)
        probs = location_probabilities(scores, e.allowed)
        out = np.zeros((52, 5), dtype=np.float64)
        me = int(view.seat)
        for slot in np.flatnonzero(e.unseen):
            card = e.cards[slot]
            for r in range(3):
                out[card, (me + 1 + r) % 4] = probs[slot, r]
            out[card, 4] = probs[slot, 3]
        return out


def location_probabilities(scores: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """The location head's scores (52, 4) as chances over the places ``allowed`` (rows with none: 0)."""
    masked = np.where(allowed, scores, MASKED)
    probs = softmax(masked)
    return np.where(allowed.any(axis=-1, keepdims=True), probs, 0.0)


def slot_action_keep(e: Encoded, slot: int) -> Action:
    """A keep of the one card in ``slot`` (how :meth:`Models.policy` names a card of a keep)."""
    return Keep(CardSet(1 << e.cards[slot]))


def _legal_softmax(scores: np.ndarray, legal: np.ndarray) -> np.ndarray:
    return softmax(np.where(legal, scores, MASKED))


@lru_cache(maxsize=8)
def _load(folder: str) -> Models:
    _one_blas_thread()
    path = Path(folder)
    weights, manifest_path = path / WEIGHTS, path / MANIFEST
    if not weights.exists() or not manifest_path.exists():
        raise WeightsError(f"no trained weights in {path} (it needs {WEIGHTS} and {MANIFEST}); "
                           "make them with cinch train")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise WeightsError(f"{manifest_path}: not a weights manifest ({e})") from None
    if manifest.get("format") != FORMAT:
        raise WeightsError(f"{manifest_path}: format {manifest.get('format')!r}, not {FORMAT}")
    if manifest.get("signature") != signature():
        raise WeightsError(f"{path}: the weights were trained on other features (signature "
                           f"{manifest.get('signature')}, these features are {signature()}); train them again")
    try:
        with np.load(weights) as arrays:
            networks = {kind: Committee.from_arrays(kind, arrays) for kind in KINDS}
    except (OSError, KeyError, ValueError) as e:
        raise WeightsError(f"{weights}: damaged weights ({e})") from None
    return Models(networks, manifest)


def _one_blas_thread() -> None:
    """Make this process's matrix products run on one thread.

    The networks answer one position at a time, where BLAS threads buy nothing and cost a tail: on a busy
    two-core machine the neural bot's p99 was 19 ms a decision with OpenBLAS's threads and 4.4 ms with one.
    A process that plays (a server's event loop, an arena's worker) gets its parallelism from processes.
    """
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


def save(folder: str | os.PathLike[str], networks: Mapping[str, Network | Committee], manifest: dict[str, Any],
         ) -> Path:
    """Write the networks (packed: :func:`pack`) and the manifest into ``folder``; returns the weights file."""
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {}
    for net in networks.values():
        for k, v in net.arrays().items():
            arrays.update(pack(k, v))
    partial = path / (WEIGHTS + ".partial.npz")
    np.savez_compressed(partial, allow_pickle=False, **arrays)
    manifest = {"format": FORMAT, "signature": signature(), **manifest}
    (path / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(partial, path / WEIGHTS)
    _load.cache_clear()
    return path / WEIGHTS

