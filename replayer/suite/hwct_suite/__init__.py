"""hwc-suite: a suite of hwc-replay runs as LAVA jobs (docs/fleet.md).

One module per concept: suite (the suite file), shard (fractions), jobs (LAVA
job definitions), artifacts (what a job deploys), schema (LAVA's own job
schema), lavalog (LAVA job logs), merge (the merged report), local (lava-run).
"""


# The architectures of boards (Debian's names): hwc-suite makes jobs, device dictionaries
# and board files for these (docs/fleet.md, "Architectures").
BOARD_ARCHES = ("amd64", "arm64")


class SuiteError(Exception):
    """Bad input: the message names the file and the field."""
