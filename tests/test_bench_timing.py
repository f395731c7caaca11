"""The size sweep's timing (:mod:`cipherlab.bench_timing`): batches hold a stream and divide by the messages of a
call. No speed is asserted (timings are noise here)."""
from __future__ import annotations

import time

from cipherlab import bench_timing


def test_time_cases_holds_a_stream_per_batch_and_divides_by_the_messages_per_call():
    """A case with ``least`` calls per batch runs at least that many in each batch (after one warm-up call);
    its time is divided by ``per_call`` (two streams: one message on each of two threads per call)."""
    counts = [0, 0]

    def one():
        counts[0] += 1

    def two():
        counts[1] += 1
        time.sleep(1e-3)  # a batch of one call lasts BATCH_SECONDS already

    (s1, c1), (s2, c2) = bench_timing.time_cases([one, two], repeats=2, least=[1, 5], per_call=[1, 2])
    assert c2 == 5 and counts[1] == 1 + 1 + 2 * 5  # warm-up, the batch-size probe, two batches of five
    assert c1 >= 1 and s1 > 0 and 5e-4 <= s2 < 1.0  # 1 ms per call, two messages per call
