"""Shards of a suite, as Mesa's trace and dEQP CI split a test list.

--fraction K/N selects every Nth case starting at the Kth (1-based): case i
(0-based, in suite order) belongs to shard (i mod N) + 1. Fractions 1/N..N/N
therefore cover every case exactly once and differ in size by at most one.
"""

import re

from . import SuiteError


def parse_fraction(text):
    """Returns (k, n) from "K/N" with 1 <= K <= N; raises SuiteError."""
    m = re.fullmatch(r"([0-9]+)/([0-9]+)", text or "")
    if not m:
        raise SuiteError("--fraction %r: expected K/N, e.g. 1/2" % text)
    k, n = int(m.group(1)), int(m.group(2))
    if n < 1 or k < 1 or k > n:
        raise SuiteError("--fraction %s: K must be 1..N and N at least 1" % text)
    return k, n


def select(items, k, n):
    """The items of shard k of n (see the module comment), in order."""
    return [item for i, item in enumerate(items) if i % n == k - 1]
