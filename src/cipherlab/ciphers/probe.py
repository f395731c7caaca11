"""The limit of AES on the running CPU, measured: what the hardware style's speed is held to.

Two compiled loops, timed on this thread's CPU time (``time.thread_time_ns``: time while another
process has the core is not counted), the fastest of several runs interleaved across widths:

* **AES chains**: twelve independent chains of ``aesenc`` on each register width the CPU has
  (xmm: AES-NI; ymm: VAES; zmm: VAES with AVX-512), every instruction waiting on its own chain
  only. Their rate is the AES units' throughput: AES instructions per cycle, and block-rounds per
  cycle (an instruction on a ymm register advances two blocks, on zmm four). A CPU that splits a
  512-bit instruction into two 256-bit halves ("double-pumps" it) shows the same block-rounds per
  cycle on zmm as on ymm; one with a full 512-bit datapath twice as many.
* **A CTR block**: the work no CTR implementation can do without, on data in the L1 cache: per
  register of counters a vector add, the whitening XOR, the rounds (AES-128/192/256: 10/12/14 AES
  instructions), the load of the input, the XOR and the store of the output; as many registers in
  flight as the kernels keep (``_vaes_kernels.REGISTERS``), on each width. Its cycles per byte, at
  the width the CPU does best, is **the bound** of the key size: the AES rounds at the rate the
  chains show, plus the loads and stores a CTR block needs, on the ports they share (never below
  the AES units alone: where a timing comes out under them, theirs is taken). ECB needs no less (a load and a store per block, the same rounds).

The chains give the AES units' own bound beside it (``rounds / (16 * block-rounds per cycle)``), and
:func:`instruction_bound` the formula's figure (two AES instructions per cycle, the datasheet
figure of AMD Zen 2 to 4 and Intel Ice Lake on) as a cross-check. Cycles are time times the clock
:func:`cipherlab.ciphers.cpu.measured_clock_hz` measures in the same process; a fraction of the
bound (bound / measured cycles per byte) is a ratio of two times, whatever the clock.

:func:`measure` runs once per process (about a tenth of a second once compiled; its result is
cached); importing this module compiles and runs nothing. Only the widths the JIT target may emit
are run (:func:`cipherlab.ciphers.cpu.aesni_status` and friends): the others say why not.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from cipherlab.ciphers._numba import jit
from cipherlab.ciphers._vaes_kernels import REGISTERS, aes_function, group_shape, marker_lanes
from cipherlab.ciphers.cpu import aesni_status, measured_clock_hz, vaes_status, zmm_status

__all__ = ["ROUNDS", "WIDTHS", "CHAINS", "AES_PER_CYCLE_FORMULA", "Probe", "WidthResult", "instruction_bound",
           "measure", "zmm_gain"]

#: AES rounds per key size (bits): AES instructions per block.
ROUNDS = {128: 10, 192: 12, 256: 14}
#: Register widths (bits) -> 128-bit blocks per AES instruction.
WIDTHS = {128: 1, 256: 2, 512: 4}
#: Independent chains of the AES probe: more than latency x throughput on any x86 core so far
#: (Zen 4: 4 cycles x 2 per cycle), fewer than the 16 vector registers AVX2 has (with the key).
CHAINS = 12
#: AES round instructions issued per cycle, the formula's assumption (AMD Zen 2-4, Intel Ice Lake on).
AES_PER_CYCLE_FORMULA = 2
_STATUS = {128: aesni_status, 256: vaes_status, 512: zmm_status}
_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
#: Bytes of the CTR block loop's input and output buffers (each): well inside any L1 data cache.
_CTR_BUFFER = 4096
#: Loop lengths: each timed run lasts a fraction of a millisecond at these rates.
_CHAIN_STEPS = 1 << 16
_CTR_BYTES = 1 << 22


def instruction_bound(rounds: int = 10, blocks_per_instruction: int = 1,
                      per_cycle: float = AES_PER_CYCLE_FORMULA) -> float:
    """The formula's bound in cycles per byte: ``rounds`` AES instructions per 16-byte block, ``per_cycle``
    of them per cycle, each on ``blocks_per_instruction`` blocks (1: AES-NI, 2: VAES on ymm, 4: zmm).
    The assumption: loads, stores, the whitening XOR and the counters run beside the AES units."""
    return rounds / (per_cycle * blocks_per_instruction * 16)


def _loop(builder, count, initial, step):
    """Emit ``for i in range(count)`` (``count`` >= 1) with loop-carried values: they start as the
    values ``initial``, and ``step(i, carried)`` returns their next values. Returns the last ones.
    The carried values are LLVM vectors (phi nodes), so they stay in vector registers."""
    pre = builder.block
    loop = builder.append_basic_block("probe.loop")
    done = builder.append_basic_block("probe.done")
    builder.branch(loop)
    builder.position_at_end(loop)
    i = builder.phi(_I64)
    phis = [builder.phi(v.type) for v in initial]
    new = step(i, phis)
    nxt = builder.add(i, ir.Constant(_I64, 1))
    i.add_incoming(ir.Constant(_I64, 0), pre)
    i.add_incoming(nxt, builder.block)
    for phi, v0, v1 in zip(phis, initial, new):
        phi.add_incoming(v0, pre)
        phi.add_incoming(v1, builder.block)
    builder.cbranch(builder.icmp_signed("<", nxt, count), loop, done)
    builder.position_at_end(done)
    return new


@intrinsic
def _aes_chains(typingctx, seed, steps, lanes):
    """:data:`CHAINS` chains of ``steps`` ``aesenc`` each, on registers of ``len(lanes)`` lanes loaded from
    ``seed`` (``uint8``, at least ``16 * len(lanes) * (CHAINS + 1)`` bytes); returns a lane of their XOR
    (so that nothing is optimised away). Emitted as one loop with the chains in vector registers."""
    w = marker_lanes(lanes)
    if w is None:
        return None
    vt = ir.VectorType(_I64, w)

    def codegen(context, builder, sig, args):
        base = builder.bitcast(context.make_array(sig.args[0])(context, builder, args[0]).data, vt.as_pointer())
        regs = [builder.load(builder.gep(base, [ir.Constant(_I64, i)]), align=1) for i in range(CHAINS + 1)]
        key, aesenc = regs[0], aes_function(builder, "aesenc", w)
        out = _loop(builder, args[1], regs[1:], lambda i, xs: [builder.call(aesenc, [x, key]) for x in xs])
        acc = out[0]
        for v in out[1:]:
            acc = builder.xor(acc, v)
        return builder.extract_element(acc, ir.Constant(_I32, 0))
    return types.uint64(seed, types.int64, lanes), codegen


@intrinsic
def _ctr_blocks(typingctx, src, dst, keys, iterations, marker, shape):
    """A CTR block's work, ``iterations`` times a group of registers (``_vaes_kernels.group_shape``), over ``src`` into
    ``dst`` (each :data:`_CTR_BUFFER` bytes, cycled): counters (a vector add), the whitening XOR, the
    rounds of ``len(marker)`` keys (rows of ``keys``, ``uint64[n, 2]``), the load, XOR and store."""
    dims, n = group_shape(shape), (marker.count if isinstance(marker, types.UniTuple) else 0)
    if dims is None or n < 2:
        return None
    regs, w = dims
    vt = ir.VectorType(_I64, w)
    group = regs * 8 * w  # bytes of the group

    def codegen(context, builder, sig, args):
        src_, dst_, keys_ = (context.make_array(t)(context, builder, a) for t, a in zip(sig.args[:3], args[:3]))
        kptr = keys_.data
        ks = []
        for r in range(n):
            lo, hi = (builder.load(builder.gep(kptr, [ir.Constant(_I64, 2 * r + j)])) for j in range(2))
            k = ir.Constant(vt, ir.Undefined)
            for lane in range(w):
                k = builder.insert_element(k, hi if lane % 2 else lo, ir.Constant(_I32, lane))
            ks.append(k)
        aesenc, aesenclast = aes_function(builder, "aesenc", w), aes_function(builder, "aesenclast", w)
        blocks = w // 2
        counter_step = ir.Constant(vt, [0, regs * blocks << 56] * blocks)  # the last byte: see _vaes_kernels

        def first(j):  # register j's counters: any base (the first key) plus its blocks' offsets
            return builder.add(ks[0], ir.Constant(vt, [v for b in range(blocks) for v in (0, (j * blocks + b) << 56)]))

        def step(i, carried):
            ctrs, off = carried[:regs], carried[regs]
            xs = [builder.xor(c, ks[0]) for c in ctrs]
            for k in ks[1:-1]:
                xs = [builder.call(aesenc, [x, k]) for x in xs]
            xs = [builder.call(aesenclast, [x, ks[-1]]) for x in xs]
            for j, x in enumerate(xs):
                o = builder.add(off, ir.Constant(_I64, j * 8 * w))
                p_in = builder.bitcast(builder.gep(src_.data, [o]), vt.as_pointer())
                p_out = builder.bitcast(builder.gep(dst_.data, [o]), vt.as_pointer())
                builder.store(builder.xor(builder.load(p_in, align=1), x), p_out, align=1)
            nxt = builder.add(off, ir.Constant(_I64, group))
            wrap = builder.icmp_unsigned(">=", nxt, ir.Constant(_I64, _CTR_BUFFER))
            nxt = builder.select(wrap, ir.Constant(_I64, 0), nxt)
            return [builder.add(c, counter_step) for c in ctrs] + [nxt]
        _loop(builder, args[3], [first(j) for j in range(regs)] + [ir.Constant(_I64, 0)], step)
        return context.get_dummy_value()
    return types.void(src, dst, keys, types.int64, marker, shape), codegen


@jit
def _run_chains(seed, steps, lanes):
    return _aes_chains(seed, steps, lanes)


@jit
def _run_ctr(src, dst, keys, iterations, marker, shape):
    _ctr_blocks(src, dst, keys, iterations, marker, shape)


def _best_times(cases: dict, repeats: int) -> dict:
    """The fastest ``thread_time_ns`` of each case's call, the calls interleaved across cases."""
    for call in cases.values():  # compile (or load from Numba's cache) and warm up
        call()
    best = dict.fromkeys(cases, math.inf)
    for _ in range(repeats):
        for name, call in cases.items():
            t0 = time.thread_time_ns()
            call()
            best[name] = min(best[name], time.thread_time_ns() - t0)
    return best


def _ctr_case(width: int, bits: int):
    rng = np.random.default_rng(bits)
    src, dst = rng.integers(0, 256, _CTR_BUFFER, dtype=np.uint8), np.empty(_CTR_BUFFER, np.uint8)
    keys = rng.integers(0, 2 ** 63, (ROUNDS[bits] + 1, 2), dtype=np.uint64)
    shape, marker = ((0,) * (width // 64),) * REGISTERS[width], (0,) * (ROUNDS[bits] + 1)
    group = REGISTERS[width] * width // 8  # bytes
    iterations = _CTR_BYTES // group
    return lambda: _run_ctr(src, dst, keys, iterations, marker, shape), iterations * group


@dataclass(frozen=True)
class WidthResult:
    """One register width: measured, or the reason it was not (``status``)."""

    width: int
    status: str = ""
    aes_per_cycle: float = math.nan          # AES instructions per cycle (the chains)
    ctr_cycles_per_byte: dict = field(default_factory=dict)   # key bits -> a CTR block's cycles per byte

    @property
    def blocks_per_instruction(self) -> int:
        return WIDTHS[self.width]

    @property
    def block_rounds_per_cycle(self) -> float:
        return self.aes_per_cycle * self.blocks_per_instruction


@dataclass(frozen=True)
class Probe:
    """The probe's result: the clock, and per register width the AES rate and a CTR block's cycles per byte."""

    clock_hz: float
    widths: dict  # width -> WidthResult, every width, measured or not

    def measured(self) -> list:
        return [r for r in self.widths.values() if not r.status]

    def best_width(self, bits: int = 128) -> "int | None":
        """The width at which a CTR block of ``bits`` runs fastest here (None: nothing measured)."""
        rows = self.measured()
        return min(rows, key=lambda r: r.ctr_cycles_per_byte[bits]).width if rows else None

    def bound(self, bits: int) -> float:
        """The bound of key size ``bits`` in cycles per byte: a CTR block at the best width, or the AES units
        alone where that is slower (no CTR block beats them: a figure below theirs is the noise of two
        timings, never a faster machine); NaN if nothing ran."""
        width = self.best_width(bits)
        return max(self.widths[width].ctr_cycles_per_byte[bits], self.aes_bound(bits)) if width else math.nan

    def aes_bound(self, bits: int) -> float:
        """The AES units alone: ``rounds / (16 * block-rounds per cycle)`` at the best width of the chains."""
        rate = max((r.block_rounds_per_cycle for r in self.measured()), default=math.nan)
        return ROUNDS[bits] / (16 * rate)

    def formula(self, bits: int, width: int) -> float:
        """The formula's figure for ``bits`` at register ``width`` (:func:`instruction_bound`)."""
        return instruction_bound(ROUNDS[bits], WIDTHS[width])

    def gain(self, width: int, over: int) -> float:
        """How many more block-rounds per cycle the AES units do on ``width`` than on ``over`` (the chains;
        NaN unless both ran): 2 where a 512-bit datapath is full, 1 where it is double-pumped."""
        a, b = self.widths[width], self.widths[over]
        if a.status or b.status:
            return math.nan
        return a.block_rounds_per_cycle / b.block_rounds_per_cycle

    def as_dict(self) -> dict:
        """Plain values for a provenance record (JSON)."""
        return {"clock_hz": self.clock_hz,
                "widths": {str(w): {"status": r.status or "measured", "aes_per_cycle": r.aes_per_cycle,
                                    "blocks_per_instruction": r.blocks_per_instruction,
                                    "block_rounds_per_cycle": r.block_rounds_per_cycle,
                                    "ctr_cycles_per_byte": {str(b): v for b, v in r.ctr_cycles_per_byte.items()}}
                           for w, r in self.widths.items()},
                "bound_cycles_per_byte": {str(b): self.bound(b) for b in ROUNDS},
                "aes_bound_cycles_per_byte": {str(b): self.aes_bound(b) for b in ROUNDS},
                "best_width": {str(b): self.best_width(b) for b in ROUNDS}}


def _not_measured(width: int, reason: str) -> WidthResult:
    return WidthResult(width, status=f"not measured: {reason}")


def _chains_case(width: int):
    seed = np.arange(16 * 4 * (CHAINS + 1), dtype=np.uint64).view(np.uint8)
    lanes = (0,) * (width // 64)
    return lambda: _run_chains(seed, _CHAIN_STEPS, lanes)


def _measure_widths(widths, repeats: int, bits_list=tuple(ROUNDS)) -> dict:
    """``{width: (chain ns, {bits: (ctr ns, bytes)})}`` for the widths the JIT target may run."""
    cases, sizes = {}, {}
    for w in widths:
        cases[("chains", w)] = _chains_case(w)
        for bits in bits_list:
            cases[("ctr", w, bits)], sizes[w, bits] = _ctr_case(w, bits)
    best = _best_times(cases, repeats)
    return {w: (best["chains", w], {b: (best["ctr", w, b], sizes[w, b]) for b in bits_list}) for w in widths}


@lru_cache(maxsize=1)
def measure(repeats: int = 9) -> Probe:
    """Run the probe once per process (the result is cached): the clock, then every width this process
    may run, interleaved, the fastest of ``repeats`` runs each."""
    reasons = {w: _STATUS[w]() for w in WIDTHS}
    runnable = [w for w in WIDTHS if not reasons[w]]
    clock = measured_clock_hz()
    times = _measure_widths(runnable, repeats) if runnable else {}
    out = {}
    for w in WIDTHS:
        if reasons[w]:
            out[w] = _not_measured(w, reasons[w])
            continue
        chain_ns, ctr = times[w]
        out[w] = WidthResult(w, aes_per_cycle=CHAINS * _CHAIN_STEPS / (chain_ns * 1e-9 * clock),
                             ctr_cycles_per_byte={b: ns * 1e-9 * clock / size for b, (ns, size) in ctr.items()})
    return Probe(clock_hz=clock, widths=out)


@lru_cache(maxsize=1)
def zmm_gain(repeats: int = 9) -> float:
    """How many more AES block-rounds per cycle the chains run on zmm than on ymm here (NaN where the
    process may not run both): what picks the 512-bit kernels. A full 512-bit datapath gives about 2,
    a double-pumped one about 1. No clock needed (a ratio of two times); cached per process, a
    millisecond of measuring once compiled."""
    if zmm_status() or vaes_status():
        return math.nan
    best = _best_times({w: _chains_case(w) for w in (256, 512)}, repeats)
    return (WIDTHS[512] / best[512]) / (WIDTHS[256] / best[256])
