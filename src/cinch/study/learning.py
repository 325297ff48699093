"""The learned bots' training: data valued by the expert, networks fitted in NumPy, a report (``cinch train``).

**The data.**  Self-play over every preset at four players (:data:`~cinch.neural.features.PRESETS`),
three deals in four between experts and one in four between heuristic bots (for positions the expert
would not reach), every decision valued by the labelling expert (``worlds`` worlds per play decision,
four times as many playouts elsewhere, so that it searches the same worlds on any machine, however
busy): its choice and its value of every candidate it searched.  The rows are the dataset export's
(:mod:`cinch.study.dataset`), with the values columns and every seat's hand (``hidden_hands``: a
label of the card-location model, never an input).  The work is cut into chunks of a few deals, each
written to its own file by a worker of a process pool (:mod:`cinch.backends`); a chunk's file depends
only on the plan's seed and the chunk, so the same plan writes the same bytes on any number of workers,
and a run stopped half way goes on from the chunks already written.

**The fit** (:func:`fit`) reads the rows back through :func:`~cinch.study.dataset.row_view` (the
seat's view rebuilt from the row: nothing hidden can enter), encodes each decision
(:func:`cinch.neural.features.encode`) and fits one network per kind of decision with three heads:
the policy, the value and the card locations (:mod:`cinch.neural.models`).  Deals whose game id hashes
into the last tenth are held out for validation; the weights kept are those of the epoch with the best
validation loss.

>>> plan = DataPlan(deals=12, seed=1)
>>> [(p, bots, n) for p, bots, n in plan.counts()][:3]
[('pagat', 'expert', 2), ('pagat', 'heuristic', 1), ('difference', 'expert', 2)]
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import platform
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np

from cinch.actions import Keep, parse_action
from cinch.arena import derive_seed
from cinch.backends import make_backend
from cinch.cards import CardSet, bit_list
from cinch.errors import CinchError
from cinch.neural import models
from cinch.neural.features import (
    ACTION_SLOTS,
    CHANNELS,
    FEATURES,
    HEURISTIC_INPUT,
    KINDS,
    LOCATIONS,
    PRESETS,
    SLOT_INPUTS,
    Encoded,
    action_slot,
    encode,
    heuristic_slot,
    keep_slots,
    slot_inputs,
)
from cinch.rules import Rules
from cinch.study.dataset import SelfPlay, export, labelling_expert, read_rows, row_view, self_play_game_rows

__all__ = [
    "DataPlan", "FitConfig", "LearningError", "Samples", "TrainReport", "fit", "load_samples", "make_data",
    "write_report",
]

PLAN_FILE = "plan.json"
DATA_DIR = "data"
TIMING_FILE = "timing.jsonl"  # in the data folder: each run's wall time
REPORT_DIR = "report"
REPORT_FILES = ("curves.png", "summary.md", "summary.json")
HELD_OUT = 0.1  # the share of deals kept for validation (by a hash of the game id)


class LearningError(CinchError):
    """Training that cannot go on as asked: a plan that differs from the data already made, no data, ..."""


# ---------------------------------------------------------------------------
# The data
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class DataPlan:
    """What ``cinch train`` plays: ``deals`` deals shared among the presets.  In the first round a quarter
    of each preset's are between heuristic bots (``heuristic_share``), the rest between labelling experts
    of ``worlds``; in a later round (``round`` 2 or more) every seat is the neural bot of the previous
    round's ``weights``, so that the expert labels the positions the network's own play reaches (DAgger:
    a policy trained only on the expert's positions drifts where its own mistakes lead)."""

    deals: int
    seed: int
    worlds: int = 8
    heuristic_share: float = 0.25
    chunk: int = 4  # deals per chunk (a file, a job of the pool)
    playouts: int | None = None  # the labelling expert's playouts outside the play (None: its default, 4 worlds)
    round: int = 1
    # A later round's players: the folder of the previous round's weights (where, not what: a moved
    # training folder keeps its plan).
    weights: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise LearningError(f"--deals must be at least 1, not {self.deals}")
        if self.worlds < 1:
            raise LearningError(f"--worlds must be at least 1, not {self.worlds}")
        if self.playouts is not None and self.playouts < 1:
            raise LearningError(f"the labelling expert's playouts must be at least 1, not {self.playouts}")
        if not 0 <= self.heuristic_share <= 1:
            raise LearningError(f"the heuristic's share must be from 0 to 1, not {self.heuristic_share}")
        if self.round < 1:
            raise LearningError(f"a training round is 1 or more, not {self.round}")

    @property
    def folder(self) -> str:
        """The data folder of the plan's round, under the training folder."""
        return round_folder(self.round)

    def counts(self) -> list[tuple[str, str, int]]:
        """(preset, bots, deals) for every part of the plan, in order."""
        out = []
        for i, preset in enumerate(PRESETS):
            n = self.deals // len(PRESETS) + (i < self.deals % len(PRESETS))
            if self.round > 1:
                out.append((preset, "neural", n))
                continue
            heuristic = round(n * self.heuristic_share)
            out += [(preset, "expert", n - heuristic), (preset, "heuristic", heuristic)]
        return [(p, b, n) for p, b, n in out if n]

    def spec(self, preset: str, bots: str, count: int) -> SelfPlay:
        """The self-play of one part: its own seed, so no two parts share a deck."""
        options: tuple[tuple[str, Any], ...] = ()
        if bots == "expert":
            options = tuple(labelling_expert(self.worlds, self.playouts).options)
        elif bots == "neural":
            options = (("weights", self.weights),)
        return SelfPlay(rules=Rules.preset(preset), bots=(bots,) * 4, count=count,
                        seed=derive_seed(self.seed, "train", preset, bots, *self._later()), options=options,
                        values=self.worlds,
                        value_playouts=self.playouts, hidden=True)

    def _later(self) -> tuple[int, ...]:
        return (self.round,) if self.round > 1 else ()  # the first round's seeds are those of before rounds

    def chunks(self) -> list[tuple[SelfPlay, int, int, str]]:
        """Every chunk: its self-play, its first and last game (exclusive) and its file name.  The parts'
        chunks are interleaved, so that a run's early chunks hold every preset."""
        specs = {(preset, bots): self.spec(preset, bots, n) for preset, bots, n in self.counts()}
        return [(specs[preset, bots], start, stop, name) for preset, bots, start, stop, name in self._chunks()]

    def chunk_files(self) -> list[str]:
        """The chunks' file names, in the order of :meth:`chunks` (without making their players: a later
        round's weights need not be loadable to read the data they made)."""
        return [name for *_, name in self._chunks()]

    def _chunks(self) -> list[tuple[str, str, int, int, str]]:
        parts = [[(preset, bots, s, min(s + self.chunk, n), f"{preset}-{bots}-{s:05d}.jsonl.gz")
                  for s in range(0, n, self.chunk)] for preset, bots, n in self.counts()]
        out = []
        for i in range(max(len(p) for p in parts)):
            out += [p[i] for p in parts if i < len(p)]
        return out

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DataPlan:
        try:
            return cls(**data)
        except TypeError as e:
            raise LearningError(f"not a training plan ({e})") from None


def round_folder(round: int) -> str:
    """The data folder of training round ``round`` under the training folder: ``data``, ``data-2``, ..."""
    return DATA_DIR if round == 1 else f"{DATA_DIR}-{round}"


@dataclass
class DataSummary:
    rows: int = 0
    deals: int = 0
    chunks: int = 0
    reused: int = 0
    seconds: float = 0.0
    files: list[str] = field(default_factory=list)


def _data_chunk(spec: SelfPlay, start: int, stop: int, path: str) -> tuple[int, int, float]:
    """Play and value games ``start`` to ``stop`` of ``spec`` into ``path``: rows, deals, seconds."""
    began = time.perf_counter()
    rows = chain.from_iterable(self_play_game_rows(spec, i, vector=False, skip_forced=True) for i in range(start, stop))
    summary = export(rows, path)
    return summary.rows, stop - start, time.perf_counter() - began


def make_data(out: str | os.PathLike[str], plan: DataPlan, workers: int = 2,
              progress: Callable[[int, int, int], None] | None = None) -> DataSummary:
    """Make (or finish) the data of ``plan`` in ``out``/data: one file per chunk, on ``workers`` processes.

    ``progress(deals done, deals in all, rows)`` is called as chunks finish.  A folder made by another
    plan is refused: its chunks would mix two seeds.
    """
    folder = Path(out) / plan.folder
    folder.mkdir(parents=True, exist_ok=True)
    plan_path = folder / PLAN_FILE
    if plan_path.exists():
        made = json.loads(plan_path.read_text(encoding="utf-8"))
        if DataPlan.from_json(made) != plan:
            raise LearningError(f"{folder} holds the data of another plan ({_plan_words(made)}); give another "
                                "folder, or the same --deals, --seed and --worlds")
    else:
        plan_path.write_text(json.dumps(plan.to_json(), indent=1) + "\n", encoding="utf-8")
    summary = DataSummary()
    chunks = plan.chunks()
    todo = []
    done_deals = 0
    for spec, start, stop, name in chunks:
        summary.files.append(name)
        if (folder / name).exists():
            summary.reused += 1
            done_deals += stop - start
        else:
            todo.append((spec, start, stop, str(folder / name)))
    summary.chunks = len(chunks)
    summary.deals = done_deals
    began = time.perf_counter()
    tally = [done_deals, 0]

    def done(_: int, result: tuple[int, int, float]) -> None:
        rows, deals, _seconds = result
        tally[0] += deals
        tally[1] += rows
        if progress is not None:
            progress(tally[0], plan.deals, tally[1])

    def tick() -> None:
        if progress is not None:
            progress(tally[0], plan.deals, tally[1])

    if todo:
        with make_backend("process", workers) as backend:
            backend.run(_data_chunk, todo, done=done, tick=tick)
    summary.deals = tally[0]
    summary.rows = tally[1]
    summary.seconds = time.perf_counter() - began
    if todo:  # the wall time of each run that made some of the data, for the report
        with open(folder / TIMING_FILE, "a", encoding="utf-8") as log:
            log.write(json.dumps({"seconds": round(summary.seconds, 1), "chunks": len(todo), "workers": workers})
                      + "\n")
    return summary


def _plan_words(plan: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in plan.items())


def data_files(out: str | os.PathLike[str], round: int = 1) -> tuple[DataPlan, list[Path]]:
    """The plan of round ``round``'s data in ``out`` and its chunk files in order (refused if any is missing)."""
    folder = Path(out) / round_folder(round)
    plan_path = folder / PLAN_FILE
    if not plan_path.exists():
        raise LearningError(f"{folder} holds no training data; make it first (cinch train {out} --stage data)")
    plan = DataPlan.from_json(json.loads(plan_path.read_text(encoding="utf-8")))
    files = [folder / name for name in plan.chunk_files()]
    missing = [f for f in files if not f.exists()]
    if missing:
        raise LearningError(f"{folder} is missing {len(missing)} of its {len(files)} chunk files (the data was "
                            "stopped half way); run the data stage again to finish it")
    return plan, files


# ---------------------------------------------------------------------------
# Samples: the rows as arrays, one set per kind of decision
# ---------------------------------------------------------------------------
@dataclass
class Samples:
    """One kind's decisions as the fit reads them."""

    kind: str
    x: np.ndarray  # float16 (N, FEATURES)
    legal: np.ndarray  # bool (N, slots): a keep's, the cards of its pool
    must: np.ndarray  # bool (N, 52): a keep's cards that must stay
    target: np.ndarray  # float32 (N, slots): the policy's target (a keep: each card's chance to be kept)
    choice: np.ndarray  # int32 (N,): the expert's slot (a keep: -1)
    kept: np.ndarray  # bool (N, 52): the expert's keep (other kinds: none)
    heuristic: np.ndarray  # int32 (N,): the heuristic's slot (a keep: -1)
    heuristic_kept: np.ndarray  # bool (N, 52)
    value: np.ndarray  # float32 (N, 2): the deal's score change, ours and theirs, in fourteenths
    where: np.ndarray  # int8 (N, 52): each unseen card's place (LOCATIONS), -1 for a card seen
    allowed: np.ndarray  # bool (N, 52, 4)
    held_out: np.ndarray  # bool (N,)
    preset: np.ndarray  # int8 (N,)
    values: np.ndarray  # float32 (N, slots): the expert's value of each candidate it searched (NaN: not searched)

    def __len__(self) -> int:
        return len(self.x)

    def take(self, index: np.ndarray) -> Samples:
        return Samples(self.kind, *(getattr(self, f)[index] for f in _SAMPLE_FIELDS))

    @classmethod
    def join(cls, kind: str, parts: Sequence[Samples]) -> Samples:
        return cls(kind, *(np.concatenate([getattr(p, f) for p in parts]) for f in _SAMPLE_FIELDS))


_SAMPLE_FIELDS = ("x", "legal", "must", "target", "choice", "kept", "heuristic", "heuristic_kept", "value", "where",
                  "allowed", "held_out", "preset", "values")


def held_out(game: str, deal: int) -> bool:
    """Whether a deal is kept for validation: the last tenth by a hash of its game and number."""
    digest = hashlib.blake2b(f"{game}/{deal}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64 >= 1 - HELD_OUT


def _soft(values: Sequence[float | None], temperature: float) -> np.ndarray:
    v = np.array([-np.inf if x is None else x for x in values], dtype=np.float64) / temperature
    v -= v.max()
    e = np.exp(v)
    return e / e.sum()


def row_sample(row: dict[str, Any], soft: float = 0.0, temperature: float = 1.0) -> tuple[str, dict[str, Any]] | None:
    """One row as a sample of its kind: the features from the row's view alone, the targets from its labels.

    The policy's target is the expert's choice, mixed (``soft``) with a softmax of its candidates' values
    at ``temperature`` (points, or percents of the match: about one to one at the start of a match).
    None for a row without labels or of a decision the models do not take.
    """
    if row.get("expert_choice") is None or row["forced"]:
        return None
    view = row_view(row)
    e = encode(view)
    kind = e.kind
    me = int(view.seat)
    slots = ACTION_SLOTS[kind]
    heuristic = heuristic_slot(e)
    expert = parse_action(row["expert_choice"])
    target = np.zeros(slots, dtype=np.float32)
    values = np.full(slots, np.nan, dtype=np.float32)
    choice = -1
    kept = np.zeros(52, dtype=bool)
    heuristic_kept = np.zeros(52, dtype=bool)
    candidates = [parse_action(a) for a in row["candidates"] or []]
    weights = _soft(row["values"], temperature) if candidates else np.zeros(0)
    if kind == "keep":
        assert isinstance(expert, Keep)
        kept = keep_slots(e, int(expert.cards))
        target += (1 - soft if candidates else 1.0) * kept
        for a, w in zip(candidates, weights):
            assert isinstance(a, Keep)
            target += soft * w * keep_slots(e, int(a.cards))
        heuristic_kept = _card_channel(e, "heuristic's choice") > 0
    else:
        choice = _slot(kind, expert, e)
        target[choice] = 1 - soft if candidates else 1.0
        for a, w, v in zip(candidates, weights, row["values"]):
            slot = _slot(kind, a, e)
            target[slot] += soft * w
            values[slot] = np.nan if v is None else v
    where = np.full(52, -1, dtype=np.int8)
    hands = [int(CardSet.parse(" ".join(cards))) for cards in row["hidden_hands"]] if row.get("hidden_hands") else None
    if hands is not None:
        holder: dict[int, int] = {}
        for seat, mask in enumerate(hands):
            for c in bit_list(mask):
                holder[c] = seat
        for place in np.flatnonzero(e.unseen):
            held = holder.get(e.cards[place])
            where[place] = 3 if held is None else (held - me) % 4 - 1
    value = np.array([row["score_change_us"], row["score_change_them"]], dtype=np.float32) / models.VALUE_SCALE
    return kind, {
        "x": e.x.astype(np.float16), "legal": e.legal, "must": e.must, "target": target, "choice": choice,
        "kept": kept, "heuristic": heuristic, "heuristic_kept": heuristic_kept, "value": value, "where": where,
        "allowed": e.allowed, "held_out": held_out(row["game"], row["deal"]),
        "preset": PRESETS.index(view.rules.preset_name), "values": values,
    }


def _card_channel(e: Encoded, name: str) -> np.ndarray:
    """One card channel of the features, by slot."""
    return e.x[:52 * len(CHANNELS)].reshape(52, len(CHANNELS))[:, CHANNELS.index(name)]


def _slot(kind: str, action: Any, e: Encoded) -> int:
    slot = action_slot(kind, action, e.cards, e.suits)
    if slot is None:
        raise LearningError(f"{action} has no slot in a {kind} decision")
    return slot


def _file_samples(path: str, soft: float, temperature: float) -> dict[str, Samples]:
    """The samples of one data file, by kind."""
    found: dict[str, list[dict[str, Any]]] = {k: [] for k in KINDS}
    for row in read_rows(path):
        made = row_sample(row, soft, temperature)
        if made is not None:
            found[made[0]].append(made[1])
    return {kind: _stack(kind, items) for kind, items in found.items() if items}


def _stack(kind: str, items: list[dict[str, Any]]) -> Samples:
    return Samples(kind, *(np.stack([np.asarray(item[f]) for item in items]) for f in _SAMPLE_FIELDS))


def load_samples(files: Sequence[str | os.PathLike[str]], soft: float = 0.0, temperature: float = 1.0,
                 workers: int = 2, progress: Callable[[int, int], None] | None = None) -> dict[str, Samples]:
    """Every file's samples, by kind, in the files' order (encoded on ``workers`` processes)."""
    jobs = [(str(f), soft, temperature) for f in files]
    tally = [0]

    def done(_: int, __: Any) -> None:
        tally[0] += 1
        if progress is not None:
            progress(tally[0], len(jobs))

    with make_backend("process", workers) as backend:
        parts = backend.run(_file_samples, jobs, done=done)
    return {kind: Samples.join(kind, [p[kind] for p in parts if kind in p])
            for kind in KINDS if any(kind in p for p in parts)}


# ---------------------------------------------------------------------------
# The fit: plain NumPy, Adam, minibatches
# ---------------------------------------------------------------------------
HIDDEN = {"bid": (256, 128), "trump": (128, 64), "keep": (256, 128), "play": (128, 64)}
SLOT_HEAD = {"keep": 32, "play": 64}
# By kind: the networks fitted from different seeds and averaged (models.Committee).  Eight play networks beat the
# heuristic by about 0.25 a deal more than one, and fit in the 5 MB of weights (docs/learning.md).
MEMBERS = {"play": 8}
HEURISTIC_START = 3.0  # the policy's first weight on the heuristic's choice: it starts by playing as the heuristic


@dataclass(frozen=True)
class FitConfig:
    """How the networks are fitted: sizes, epochs, the optimiser and the weights of the losses."""

    hidden: tuple[tuple[str, tuple[int, ...]], ...] = tuple(HIDDEN.items())
    epochs: int = 24
    batch: int = 256
    lr: float = 1e-3
    lr_end: float = 0.05  # the learning rate at the last step, as a share of ``lr`` (cosine decay)
    weight_decay: float = 3e-3  # measured from 0 to 1e-1 in docs/learning.md: 3e-3 played best
    soft: float = 0.0  # the share of the policy target given to the softmax of the expert's values
    temperature: float = 1.0  # of that softmax, in points (or percents of the match)
    value_weight: float = 0.5
    location_weight: float = 0.5
    # By kind: the weight of the policy's cross-entropy to its target, and of its scores fitted to the
    # expert's values less their mean (the play only: there the expert values every card, and the
    # network averages the noise of its eight worlds over many positions; the bids and trumps it values
    # are few and noisy, and it keeps the heuristic's there nearly always).
    imitation: tuple[tuple[str, float], ...] = (("bid", 1.0), ("trump", 1.0), ("keep", 1.0), ("play", 1.0))
    advantage: tuple[tuple[str, float], ...] = (("play", 1.0),)
    advantage_scale: float = 1.0  # points (or percents) per unit of score
    slot_head: tuple[tuple[str, int], ...] = tuple(SLOT_HEAD.items())  # by kind: the units of the shared slot layer
    members: tuple[tuple[str, int], ...] = tuple(MEMBERS.items())  # by kind: the networks of its committee
    seed: int = 0

    def sizes(self, kind: str) -> tuple[int, ...]:
        return dict(self.hidden)[kind]

    def imitation_weight(self, kind: str) -> float:
        return dict(self.imitation).get(kind, 1.0)

    def advantage_weight(self, kind: str) -> float:
        return dict(self.advantage).get(kind, 0.0)

    def slot_units(self, kind: str) -> int:
        return dict(self.slot_head).get(kind, 0)

    def member_count(self, kind: str) -> int:
        return max(1, dict(self.members).get(kind, 1))


@dataclass
class Curve:
    """One kind's fit, epoch by epoch."""

    kind: str
    train: list[float] = field(default_factory=list)  # the training loss (policy + weighted value and locations)
    valid: list[float] = field(default_factory=list)
    agreement: list[float] = field(default_factory=list)  # validation: the policy picks the expert's choice
    value_rmse: list[float] = field(default_factory=list)  # validation: points, ours less theirs
    location_loss: list[float] = field(default_factory=list)  # validation: nats per unseen card
    lost: list[float] = field(default_factory=list)  # validation: the expert's value lost against its choice
    seconds: list[float] = field(default_factory=list)
    best: int = -1
    figures: dict[str, Any] = field(default_factory=dict)  # the validation figures at the best epoch


def new_network(kind: str, sizes: Sequence[int], rng: np.random.Generator, slot_units: int = 0) -> models.Network:
    """A network of ``sizes`` hidden units, He-initialised, with a slot head of ``slot_units`` (0: none); the
    heads start small."""
    def layer(n_in: int, n_out: int, scale: float) -> tuple[np.ndarray, np.ndarray]:
        w = rng.standard_normal((n_in, n_out)).astype(np.float32) * np.float32(scale * np.sqrt(2.0 / n_in))
        return w, np.zeros(n_out, dtype=np.float32)

    trunk = []
    n = FEATURES
    for m in sizes:
        trunk.append(layer(n, m, 1.0))
        n = m
    skip = np.zeros(SLOT_INPUTS[kind], dtype=np.float32)
    skip[HEURISTIC_INPUT[kind]] = HEURISTIC_START  # start from the heuristic's choice
    head = None
    if slot_units:
        own, bias = layer(SLOT_INPUTS[kind], slot_units, 1.0)
        head = models.SlotHead(own, np.zeros((ACTION_SLOTS[kind], slot_units), dtype=np.float32),
                               layer(n, slot_units, 1.0)[0], bias, layer(slot_units, 1, 0.1)[0][:, 0].copy())
    return models.Network(kind, trunk, layer(n, ACTION_SLOTS[kind], 0.1), layer(n, 2, 0.1),
                          layer(n, 52 * len(LOCATIONS), 0.1), skip, head)


def _params(net: models.Network) -> list[np.ndarray]:
    out = []
    for w, b in [*net.trunk, net.policy, net.value, net.location]:
        out += [w, b]
    out.append(net.skip)
    if net.slot_head is not None:
        out += list(net.slot_head.arrays().values())
    return out


@dataclass
class _Batch:
    loss: float
    policy: float
    value: float
    location: float
    grads: list[np.ndarray] | None


def _batch(net: models.Network | models.Committee, s: Samples, cfg: FitConfig, grads: bool) -> _Batch:
    x = s.x.astype(np.float32)
    n = len(x)
    hs, zp, zv, zl = net.layers(x)
    eps = 1e-7
    if s.kind == "keep":
        free = s.legal & ~s.must
        p = 1 / (1 + np.exp(-np.clip(zp, -30, 30)))
        t = s.target
        policy = float(-np.sum(free * (t * np.log(p + eps) + (1 - t) * np.log(1 - p + eps))) / n)
        dzp = free * (p - t) / n
    else:
        p = models.softmax(np.where(s.legal, zp, models.MASKED))
        policy = float(-np.sum(s.target * np.log(p + eps)) / n)
        imitation, advantage = cfg.imitation_weight(s.kind), cfg.advantage_weight(s.kind)
        dzp = imitation * (p - s.target) / n
        policy *= imitation
        if advantage:
            error, dz = _advantage(zp, s, cfg)
            policy += advantage * error
            dzp = dzp + advantage * dz
    dv = zv - s.value
    value = float(0.5 * np.mean(np.sum(dv * dv, axis=1)))
    dzv = cfg.value_weight * dv / n
    labelled = s.where >= 0
    count = max(1, int(labelled.sum()))
    q = models.softmax(np.where(s.allowed, zl, models.MASKED))
    onehot = np.zeros_like(q)
    rows, cols = np.nonzero(labelled)
    onehot[rows, cols, s.where[rows, cols]] = 1
    location = float(-np.sum(np.log(q[rows, cols, s.where[rows, cols]] + eps)) / count)
    dzl = cfg.location_weight * (q - onehot) * labelled[..., None] / count
    loss = policy + cfg.value_weight * value + cfg.location_weight * location
    if not grads:
        return _Batch(loss, policy, value, location, None)
    assert isinstance(net, models.Network), "a committee is fitted member by member"
    h = hs[len(net.trunk)]
    dzl2 = dzl.reshape(n, -1)
    own = slot_inputs(net.kind, x)
    dskip = np.einsum("bsk,bs->k", own, dzp)
    out = [h.T @ dzp, dzp.sum(0), h.T @ dzv, dzv.sum(0), h.T @ dzl2, dzl2.sum(0), dskip]
    dh = dzp @ net.policy[0].T + dzv @ net.value[0].T + dzl2 @ net.location[0].T
    head = net.slot_head
    if head is not None:
        units = hs[-1]
        du = dzp[:, :, None] * head.out * (units > 0)
        per_row = du.sum(axis=1)
        out += [own.reshape(-1, own.shape[2]).T @ du.reshape(-1, du.shape[2]), du.sum(axis=0), h.T @ per_row,
                per_row.sum(axis=0), np.einsum("bsk,bs->k", units, dzp)]
        dh = dh + per_row @ head.trunk.T
    trunk_grads: list[np.ndarray] = []
    for i in range(len(net.trunk) - 1, -1, -1):
        dh = dh * (hs[i + 1] > 0)
        trunk_grads = [hs[i].T @ dh, dh.sum(0), *trunk_grads]
        if i:
            dh = dh @ net.trunk[i][0].T
    return _Batch(loss, policy, value, location, trunk_grads + out)


def _advantage(zp: np.ndarray, s: Samples, cfg: FitConfig) -> tuple[float, np.ndarray]:
    """The squared error of the scores, less their mean, against the expert's values of the same candidates,
    less theirs (over the candidates it valued, in decisions with two or more): the policy learns how much
    better each action is, the noise of the worlds averaged over many positions."""
    known = ~np.isnan(s.values) & s.legal
    count = known.sum(axis=1, keepdims=True)
    rows = (count[:, 0] >= 2)[:, None] & known
    v = np.where(rows, s.values, 0.0) / cfg.advantage_scale
    z = np.where(rows, zp, 0.0)
    k = np.maximum(rows.sum(axis=1, keepdims=True), 1)
    r = np.where(rows, (z - z.sum(axis=1, keepdims=True) / k) - (v - v.sum(axis=1, keepdims=True) / k), 0.0)
    total = max(1, int(rows.sum()))
    return float(np.sum(r * r) / total), (2 * r / total).astype(np.float32)


class _Adam:
    def __init__(self, params: list[np.ndarray], cfg: FitConfig):
        self.params = params
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0
        self.cfg = cfg

    def step(self, grads: list[np.ndarray], lr: float) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        c1, c2 = 1 - b1**self.t, 1 - b2**self.t
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            if p.ndim == 2:
                g = g + self.cfg.weight_decay * p
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= (lr * (m / c1) / (np.sqrt(v / c2) + 1e-8)).astype(np.float32)


def validate(net: models.Network | models.Committee, s: Samples, cfg: FitConfig, chunk: int = 2048,
             ) -> dict[str, float]:
    """The validation figures of ``net`` on ``s``: the loss and its parts, the agreement with the expert's
    choice (and the heuristic's, for comparison), the value's error in points and the location log-loss
    (and that of an even chance over the places allowed)."""
    totals = {"loss": 0.0, "policy": 0.0, "value": 0.0, "location": 0.0}
    agree = heuristic = 0
    squared = 0.0
    loc_count = 0
    uniform = 0.0
    regret = {"policy": 0.0, "heuristic": 0.0}
    regret_count = {"policy": 0, "heuristic": 0}
    for start in range(0, len(s), chunk):
        part = s.take(np.arange(start, min(start + chunk, len(s))))
        b = _batch(net, part, cfg, grads=False)
        n = len(part)
        labelled = int((part.where >= 0).sum())
        for k in totals:
            totals[k] += getattr(b, k) * n
        _, zp, zv, _ = net.layers(part.x.astype(np.float32))
        if s.kind == "keep":
            kept = ((zp > 0) & part.legal) | part.must
            agree += int(np.all(kept == part.kept, axis=1).sum())
            heuristic += int(np.all(part.heuristic_kept == part.kept, axis=1).sum())
        else:
            chosen = np.argmax(np.where(part.legal, zp, models.MASKED), axis=1)
            agree += int((chosen == part.choice).sum())
            heuristic += int((part.heuristic == part.choice).sum())
            for name, picks in (("policy", chosen), ("heuristic", part.heuristic)):
                lost, count = _value_lost(part, picks)
                regret[name] += lost
                regret_count[name] += count
        diff = (zv[:, 0] - zv[:, 1]) - (part.value[:, 0] - part.value[:, 1])
        squared += float(np.sum(diff * diff)) * models.VALUE_SCALE**2
        rows, cols = np.nonzero(part.where >= 0)
        uniform += float(np.sum(np.log(part.allowed[rows, cols].sum(axis=1))))
        loc_count += labelled
    n = max(1, len(s))
    out = {k: v / n for k, v in totals.items()}
    # the location part above is averaged per batch; the figure reported is per card over the whole set
    out.update(agreement=agree / n, heuristic_agreement=heuristic / n, value_rmse=float(np.sqrt(squared / n)),
               location_uniform=uniform / max(1, loc_count), samples=len(s))
    if s.kind != "keep":  # a keep's candidates are whole hands, which the policy's cards seldom make exactly
        out.update(lost=regret["policy"] / max(1, regret_count["policy"]),
                   heuristic_lost=regret["heuristic"] / max(1, regret_count["heuristic"]))
    return out


def _value_lost(s: Samples, picks: np.ndarray) -> tuple[float, int]:
    """How much the picks lose against the expert's choice, by the expert's own values (points, or percents of
    the match), summed over the decisions where both were searched; and how many those are."""
    rows = np.arange(len(s))
    ok = (picks >= 0) & (s.choice >= 0)
    best = s.values[rows, np.maximum(s.choice, 0)]
    mine = s.values[rows, np.maximum(picks, 0)]
    ok &= ~np.isnan(best) & ~np.isnan(mine)
    return float(np.sum((best - mine)[ok])), int(ok.sum())


def fit_kind(s: Samples, cfg: FitConfig, progress: Callable[[str, int, int, str], None] | None = None,
             ) -> tuple[models.Network | models.Committee, Curve]:
    """Fit one kind's network on its training samples (:func:`fit_kinds`, in this process)."""
    networks, curves = fit_kinds({s.kind: s}, cfg, 1, progress)
    return networks[s.kind], curves[s.kind]


def fit_kinds(samples: Mapping[str, Samples], cfg: FitConfig, workers: int = 1,
              progress: Callable[[str, int, int, str], None] | None = None,
              ) -> tuple[dict[str, models.Network | models.Committee], dict[str, Curve]]:
    """Fit each kind's network on its training samples, keeping the epoch best on the held-out ones; where a
    kind has a committee (``cfg.members``), each member from its own seed, and its curve's figures are then
    the committee's (its epochs: the first member's).

    The fits are independent: with ``workers`` above one they run in that many forked processes at once
    (the largest first).  Each runs its arithmetic on one thread, so the weights are the same on any
    number of workers.
    """
    fitted = _fit_members(samples, cfg, workers, progress)
    networks: dict[str, models.Network | models.Committee] = {}
    curves: dict[str, Curve] = {}
    for kind, s in samples.items():
        members = [fitted[kind, i] for i in range(cfg.member_count(kind))]
        networks[kind], curves[kind] = members[0] if len(members) == 1 else _committee(s, members, cfg)
    return networks, curves


def _fit_members(samples: Mapping[str, Samples], cfg: FitConfig, workers: int,
                 progress: Callable[[str, int, int, str], None] | None,
                 ) -> dict[tuple[str, int], tuple[models.Network, Curve]]:
    """Every kind's every member, by (kind, member): on forked processes where ``workers`` allow, else here
    (then with progress epoch by epoch)."""
    jobs = sorted(((kind, i) for kind in samples for i in range(cfg.member_count(kind))),
                  key=lambda job: -len(samples[job[0]]) * _width(cfg, job[0]))
    fitted: dict[tuple[str, int], tuple[models.Network, Curve]] = {}
    finished = dict.fromkeys(samples, 0)

    def told(kind: str, done: int, text: str) -> None:  # ``done``: epochs of the member under way
        if progress is not None:
            progress(kind, finished[kind] * cfg.epochs + done, cfg.member_count(kind) * cfg.epochs, text)

    if workers > 1 and len(jobs) > 1 and "fork" in multiprocessing.get_all_start_methods():
        _FITTING.update(samples)  # read by the forked processes, never pickled (hundreds of MB)
        pool = ProcessPoolExecutor(min(workers, len(jobs)), multiprocessing.get_context("fork"))
        try:
            futures = {pool.submit(_fit_member, kind, i, cfg): (kind, i) for kind, i in jobs}
            for future in as_completed(futures):
                kind, i = futures[future]
                fitted[kind, i] = future.result()
                told(kind, cfg.epochs, f"{finished[kind] + 1} of {cfg.member_count(kind)} fitted")
                finished[kind] += 1
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        finally:
            _FITTING.clear()
        pool.shutdown()
        return fitted
    for kind, i in jobs:
        fitted[kind, i] = _fit_member(kind, i, cfg, samples[kind], lambda k, done, _, text: told(k, done, text))
        finished[kind] += 1
    return fitted


def _committee(s: Samples, members: Sequence[tuple[models.Network, Curve]], cfg: FitConfig,
               ) -> tuple[models.Committee, Curve]:
    """The members as a committee, and the first member's curve with the committee's held-out figures."""
    committee = models.Committee([net for net, _ in members])
    valid = s.take(np.flatnonzero(s.held_out))
    curve = members[0][1]
    curve.figures = {**validate(committee, valid if len(valid) else s, cfg), "held_out": bool(len(valid)),
                     "members": len(members), "member_lost": [c.figures.get("lost") for _, c in members]}
    return committee, curve


_FITTING: dict[str, Samples] = {}


def _width(cfg: FitConfig, kind: str) -> int:
    return sum(cfg.sizes(kind)) + ACTION_SLOTS[kind]


def _fit_member(kind: str, i: int, cfg: FitConfig, s: Samples | None = None,
                progress: Callable[[str, int, int, str], None] | None = None) -> tuple[models.Network, Curve]:
    """The ``i``-th network of ``kind``'s committee (a lone network is the first), on ``s`` or the samples
    the parent process left in ``_FITTING``."""
    from threadpoolctl import threadpool_limits

    # The first member's seed is a lone network's, so that a committee of one is that network.
    seed = derive_seed(cfg.seed, "fit", kind) if i == 0 else derive_seed(cfg.seed, "fit", kind, i)
    with threadpool_limits(limits=1, user_api="blas"):
        return _fit_network(s if s is not None else _FITTING[kind], cfg, np.random.default_rng(seed), progress)


def _fit_network(s: Samples, cfg: FitConfig, rng: np.random.Generator,
                 progress: Callable[[str, int, int, str], None] | None) -> tuple[models.Network, Curve]:
    train, valid = s.take(np.flatnonzero(~s.held_out)), s.take(np.flatnonzero(s.held_out))
    net = new_network(s.kind, cfg.sizes(s.kind), rng, cfg.slot_units(s.kind))
    params = _params(net)
    adam = _Adam(params, cfg)
    curve = Curve(s.kind)
    steps = max(1, cfg.epochs * ((len(train) + cfg.batch - 1) // cfg.batch))
    best_loss: tuple[float, float] = (float("inf"), float("inf"))
    best = [p.copy() for p in params]
    for epoch in range(cfg.epochs):
        began = time.perf_counter()
        order = rng.permutation(len(train))
        total = 0.0
        for start in range(0, len(train), cfg.batch):
            part = train.take(order[start:start + cfg.batch])
            b = _batch(net, part, cfg, grads=True)
            assert b.grads is not None
            frac = adam.t / steps
            lr = cfg.lr * (cfg.lr_end + (1 - cfg.lr_end) * 0.5 * (1 + np.cos(np.pi * frac)))
            adam.step(b.grads, lr)
            total += b.loss * len(part)
        # Too few deals to hold any out (a test's): the figures are the training set's, and say so.
        figures = {**validate(net, valid if len(valid) else train, cfg), "held_out": bool(len(valid))}
        curve.train.append(total / max(1, len(train)))
        curve.valid.append(figures["loss"])
        curve.agreement.append(figures.get("agreement", 0.0))
        curve.value_rmse.append(figures.get("value_rmse", 0.0))
        curve.location_loss.append(figures.get("location", 0.0))
        curve.lost.append(figures.get("lost", 0.0))
        curve.seconds.append(time.perf_counter() - began)
        # The epoch kept: the one whose policy does best by the expert: where it learns the expert's values
        # (the play), its choices lose the least by them; elsewhere it picks the expert's choice most often;
        # ties go to the least loss.
        if cfg.advantage_weight(s.kind) and "lost" in figures:
            score = (figures["lost"], figures["loss"])
        else:
            score = (-figures.get("agreement", 0.0), figures["loss"])
        if score < best_loss:
            best_loss, curve.best, curve.figures = score, epoch, figures
            best = [p.copy() for p in params]
        if progress is not None:
            progress(s.kind, epoch + 1, cfg.epochs,
                     f"valid {figures['loss']:.3f}, agrees {figures.get('agreement', 0):.1%}")
    for p, kept in zip(params, best):
        p[...] = kept
    return net, curve


# ---------------------------------------------------------------------------
# The whole fit, the weights and the report
# ---------------------------------------------------------------------------
@dataclass
class TrainReport:
    """What a fit made: the curves, the figures, the time it took, where the weights went."""

    plan: dict[str, Any]
    config: dict[str, Any]
    curves: dict[str, Curve]
    samples: dict[str, int]
    data_seconds: float
    encode_seconds: float
    fit_seconds: float
    weights: str
    weights_bytes: int
    command: str
    commit: str

    def to_json(self) -> dict[str, Any]:
        return {
            "plan": self.plan, "config": self.config, "samples": self.samples,
            "seconds": {"data": round(self.data_seconds, 1), "encode": round(self.encode_seconds, 1),
                        "fit": round(self.fit_seconds, 1)},
            "weights": self.weights, "weights_bytes": self.weights_bytes, "command": self.command,
            "commit": self.commit,
            "curves": {k: asdict(c) for k, c in self.curves.items()},
        }


def commit_of(where: Path | None = None) -> str:
    """The git commit of the source tree (with ``+changes`` when it has uncommitted ones), or ``unknown``."""
    where = where or Path(__file__).resolve().parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=where, capture_output=True, text=True, timeout=10,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=where,
                               capture_output=True, text=True, timeout=30, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


def data_seconds(out: str | os.PathLike[str], rounds: int = 1) -> float:
    """The wall time the data of ``out``'s first ``rounds`` rounds took to make, over every run that made some."""
    total = 0.0
    for r in range(1, rounds + 1):
        path = Path(out) / round_folder(r) / TIMING_FILE
        if path.exists():
            total += sum(json.loads(line)["seconds"] for line in path.read_text(encoding="utf-8").splitlines()
                         if line.strip())
    return total


def fit(out: str | os.PathLike[str], weights: str | os.PathLike[str], cfg: FitConfig, *, rounds: int = 1,
        workers: int = 2, command: str = "", progress: Callable[[str, int, int, str], None] | None = None,
        report: bool = True) -> TrainReport:
    """Fit the four networks on the data of ``out``'s first ``rounds`` rounds, write the weights into
    ``weights`` and (``report``) the report into ``out``/report; returns the report."""
    plans, files = [], []
    for r in range(1, rounds + 1):
        plan_r, files_r = data_files(out, r)
        plans.append(plan_r)
        files += files_r
    data = {**plans[0].to_json(), "rounds": [p.to_json() for p in plans[1:]]}
    began = time.perf_counter()

    def encoding(done: int, total: int) -> None:
        if progress is not None:
            progress("encode", done, total, "data files")

    samples = load_samples(files, cfg.soft, cfg.temperature, workers, encoding)
    encoded = time.perf_counter()
    for kind in KINDS:
        if kind not in samples:
            raise LearningError(f"the data holds no {kind} decision to learn from; make more deals")
    networks, curves = fit_kinds({kind: samples[kind] for kind in KINDS}, cfg, workers, progress)
    fitted = time.perf_counter()
    commit = commit_of()
    counts = {k: len(v) for k, v in samples.items()}
    settings = {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(cfg).items()}
    manifest: dict[str, Any] = {
        "data": {**data, "decisions": counts, "held_out": HELD_OUT},
        "commit": commit,
        "command": command,
        "trained": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "fit": settings,
        "validation": {k: c.figures for k, c in curves.items()},
        "parameters": {k: n.size for k, n in networks.items()},
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
                   f"NumPy {np.__version__}",
    }
    path = models.save(weights, networks, manifest)
    made = TrainReport(data, settings, curves, counts, data_seconds(out, rounds), encoded - began, fitted - encoded,
                       str(path), path.stat().st_size, command, commit)
    if report:
        write_report(Path(out) / REPORT_DIR, made)
    return made


def write_report(folder: str | os.PathLike[str], report: TrainReport) -> None:
    """The training curves (``curves.png``, Matplotlib) and the figures (``summary.md``, ``summary.json``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(2, len(KINDS), figsize=(4 * len(KINDS), 6.5), squeeze=False)
    for i, kind in enumerate(KINDS):
        c = report.curves[kind]
        epochs = range(1, len(c.train) + 1)
        top, bottom = axes[0][i], axes[1][i]
        top.plot(epochs, c.train, label="training")
        top.plot(epochs, c.valid, label="validation")
        if c.best >= 0:
            top.axvline(c.best + 1, color="grey", linestyle=":", label="kept")
        members = c.figures.get("members")  # a committee: the curves are its first member's
        first = f", the first of {members} networks" if members else ""
        top.set_title(f"{kind}: loss ({report.samples[kind]:,} decisions{first})", fontsize=10)
        top.set_xlabel("epoch")
        top.legend()
        bottom.plot(epochs, [100 * a for a in c.agreement], label="its first network" if members else "policy")
        if members:  # room below the first network's curve for the legend
            bottom.axhline(100 * c.figures["agreement"], color="tab:green", label=f"all {members}, as kept")
            bottom.set_ylim(100 * min(c.agreement) - 1.5, None)
        heuristic = c.figures.get("heuristic_agreement")
        if heuristic is not None:
            bottom.axhline(100 * heuristic, color="grey", linestyle="--", label="the heuristic")
        bottom.set_title(f"{kind}: picks the expert's choice (%)")
        bottom.set_xlabel("epoch")
        bottom.legend(loc="lower right" if members else "best", fontsize="small" if members else None)
    fig.tight_layout()
    fig.savefig(path / "curves.png", dpi=90)
    plt.close(fig)
    (path / "summary.json").write_text(json.dumps(report.to_json(), indent=1) + "\n", encoding="utf-8")
    (path / "summary.md").write_text(summary_markdown(report), encoding="utf-8")


def summary_markdown(report: TrainReport) -> str:
    """The report's figures as Markdown."""
    plan = report.plan
    lines = [
        "# Training the learned bots",
        "",
        f"`{report.command}`" if report.command else "",
        "",
        f"Data: {plan['deals']:,} deals, seed {plan['seed']}, the expert at {plan['worlds']} worlds"
        + "".join(f", then {r['deals']:,} deals of the neural bot's own play (round {r['round']})"
                  for r in plan.get("rounds", []))
        + f" ({report.data_seconds / 60:.1f} min); encoding {report.encode_seconds / 60:.1f} min; "
        f"fit {report.fit_seconds / 60:.1f} min; commit {report.commit}.",
        f"Weights: {report.weights} ({report.weights_bytes / 1e6:.2f} MB).",
        "",
        "| kind | decisions | best epoch | picks the expert's choice | the heuristic does | value RMSE (points) "
        "| locations (nats a card) | even chance |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for kind in KINDS:
        c = report.curves[kind]
        f = c.figures
        epoch = f"{c.best + 1} (the first of {f['members']})" if f.get("members") else f"{c.best + 1}"
        lines.append(f"| {kind} | {report.samples[kind]:,} | {epoch} | {f.get('agreement', 0):.1%} | "
                     f"{f.get('heuristic_agreement', 0):.1%} | {f.get('value_rmse', 0):.2f} | "
                     f"{f.get('location', 0):.3f} | {f.get('location_uniform', 0):.3f} |")
    lines += ["", "![training curves](curves.png)", ""]
    return "\n".join(lines)
