#!/usr/bin/env python3
"""A/B of recorder builds on one call class of bench-recorder (no-fd or fence-fd).

    scripts/bench-recorder-ab.py [--build DIR] [--mode pixels-off|pixels-on]
        [--class no-fd|fence-fd] [--rounds N] [--frames N] [--per-function] [--bench-arg ARG ...]
        NAME=LIB[:VAR=VALUE] NAME=LIB[:VAR=VALUE] ...

On a loaded machine a whole bench-recorder run moves by +-50 ns between runs,
more than most hot-path changes. This runs bench-recorder's own children (the
direct mode, then each LIB in the chosen mode; the order of the LIBs reverses
every round) so that builds are compared in the same minutes, and reports per
round the overhead of the class's calls (--class, default no-fd: wrapper - direct
of that round: mean of the fastest 98 %, and median), then each variant's difference from the first
with its standard error over the rounds. Copy a build's libhwc-record.so aside
before rebuilding to compare it with the next. VAR=VALUE sets one environment
variable for that variant's children (e.g. HWCT_TRIGGER=signal: wrapped but
not recording). The share of calls over 5 us (preemption, IPIs, page faults)
is printed apart: it moves the plain mean most.

--per-position prints, for each of the frame's 31 calls in order, the median
overhead of each variant (wrapper - direct at that position): the same setter
on the frame's first layer and on its second shows what a call pays for
finding the wrapper's code and data cold after the frame's drawing.
"""
import argparse
import collections
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile

# bench_recorder_classes.c: the calls that carry a fence fd (HWC2_FUNCTION_*)
FENCE_FUNCTIONS = {19, 20, 23, 28, 40, 47, 49}
TAIL_NS = 5000
CALLS_PER_FRAME = 31  # bench_recorder.h BENCH_CALLS_PER_FRAME


def parse():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--build', default=os.path.join(here, '..', 'build'))
    p.add_argument('--pixels', default='/work/shared/data/pixels/phone-lockscreen-1080x2400.png')
    p.add_argument('--mode', choices=['pixels-off', 'pixels-on'], default='pixels-off')
    p.add_argument('--class', dest='klass', choices=['no-fd', 'fence-fd'], default='no-fd',
                   help='the calls the rounds compare and --per-function lists')
    p.add_argument('--rounds', type=int, default=6)
    p.add_argument('--frames', type=int, default=150)
    p.add_argument('--per-function', action='store_true')
    p.add_argument('--per-position', action='store_true')
    p.add_argument('--bench-arg', action='append', default=[], help='e.g. --no-draw, --no-pace')
    p.add_argument('variants', nargs='+', metavar='NAME=LIB[:VAR=VALUE]')
    return p.parse_args()


def variants_of(args, tmp):
    out = []
    for v in args.variants:
        name, _, lib = v.partition('=')
        env = {}
        if ':' in lib:
            lib, _, setting = lib.partition(':')
            key, _, value = setting.partition('=')
            env[key] = value
        if not name or not os.path.isfile(lib):
            sys.exit('bench-recorder-ab: %s: want NAME=LIB with LIB a file' % v)
        # a private copy: the build may be relinked while this runs
        copy = os.path.join(tmp, name + '.so')
        shutil.copy(lib, copy)
        out.append((name, copy, env))
    return out


def run_child(args, tmp, mode, lib, env):
    samples = os.path.join(tmp, 'samples')
    fake = os.path.join(args.build, 'tests/recorder/hwcomposer.fake.so')
    cmd = [os.path.join(args.build, 'tests/bench/bench-recorder'), '--child', mode, '--samples', samples,
           '--warmup', '30', '--frames', str(args.frames), '--fake', fake, '--recorder', lib,
           '--pixels', args.pixels] + args.bench_arg
    child_env = dict(os.environ, HWCT_REAL_MODULE=fake, HWCT_OUTPUT=os.path.join(tmp, 'trace.zst'),
                     HWCT_PIXELS='1' if mode == 'pixels-on' else '0',
                     LTTNG_HOME=os.path.join(tmp, 'no-lttng'), LTTNG_UST_REGISTER_TIMEOUT='0', **env)
    subprocess.run(cmd, env=child_env, check=True)
    with open(samples, 'rb') as f:
        data = f.read()
    for name in os.listdir(tmp):
        if name.startswith('trace'):
            os.unlink(os.path.join(tmp, name))
    # struct bench_sample: int32 function, uint32 ns
    return [struct.unpack_from('<iI', data, i) for i in range(0, len(data) - 7, 8)]


def in_class(klass, fn):
    return (fn in FENCE_FUNCTIONS) == (klass == 'fence-fd')


def of_class(klass, samples):
    return sorted(ns for fn, ns in samples if in_class(klass, fn))


def summary(ns):
    return statistics.mean(ns[:max(1, int(len(ns) * 0.98))]), statistics.median(ns)


def by_position(samples):
    """Medians per position in the frame; samples are whole frames of CALLS_PER_FRAME calls, in order."""
    pos = [[] for _ in range(CALLS_PER_FRAME)]
    for i, (_, ns) in enumerate(samples):
        pos[i % CALLS_PER_FRAME].append(ns)
    return [statistics.median(p) if p else 0 for p in pos]


def print_positions(pooled, names):
    d = by_position(pooled['direct'])
    cols = {name: by_position(pooled[name]) for name in names}
    fns = [fn for fn, _ in pooled['direct'][:CALLS_PER_FRAME]]
    print('per position in the frame: HWC2_FUNCTION_*, direct median ns, each variant\'s median overhead ns ' +
          '(fence-fd calls marked *)')
    for k, fn in enumerate(fns):
        print('  %2d %2d%s direct %6.0f  %s' % (k, fn, '*' if fn in FENCE_FUNCTIONS else ' ', d[k],
              '  '.join('%s %+6.0f' % (name, cols[name][k] - d[k]) for name in names)))


def main():
    args = parse()
    tmp = tempfile.mkdtemp(prefix='bench-recorder-ab.')
    try:
        variants = variants_of(args, tmp)
        rounds = {name: [] for name, _, _ in variants}
        pooled = collections.defaultdict(list)
        for r in range(args.rounds):
            direct = run_child(args, tmp, 'direct', variants[0][1], {})
            pooled['direct'] += direct
            d = summary(of_class(args.klass, direct))
            line = []
            for name, lib, env in (variants if r % 2 == 0 else variants[::-1]):
                s = run_child(args, tmp, args.mode, lib, env)
                pooled[name] += s
                w = summary(of_class(args.klass, s))
                rounds[name].append((w[0] - d[0], w[1] - d[1]))
                line.append('%s %.0f/%.0f' % (name, w[0] - d[0], w[1] - d[1]))
            print('round %d: %s overhead trimmed mean/median ns: %s (direct %.0f/%.0f; load %.2f)' %
                  (r, args.klass, ' '.join(line), d[0], d[1], os.getloadavg()[0]), flush=True)
        first = variants[0][0]
        for name, _, _ in variants:
            o = rounds[name]
            print('%s: overhead trimmed mean %.0f ns, median %.0f ns' %
                  (name, statistics.mean(x[0] for x in o), statistics.mean(x[1] for x in o)))
        for name, _, _ in variants[1:]:
            diff = [a[0] - b[0] for a, b in zip(rounds[name], rounds[first])]
            se = statistics.stdev(diff) / len(diff) ** 0.5 if len(diff) > 1 else float('nan')
            print('%s - %s: trimmed mean %+.0f ns (standard error %.0f)' % (name, first, statistics.mean(diff), se))
        for name in ['direct'] + [v[0] for v in variants]:
            ns = of_class(args.klass, pooled[name])
            tail = [x for x in ns if x > TAIL_NS]
            print('%s: plain mean %.0f ns; %d of %d calls over %d ns add %.0f ns to it' %
                  (name, statistics.mean(ns), len(tail), len(ns), TAIL_NS, sum(tail) / len(ns)))
        if args.per_function:
            def per(samples):
                by = collections.defaultdict(list)
                for fn, ns in samples:
                    by[fn].append(ns)
                return {fn: summary(sorted(v))[0] for fn, v in by.items()}
            d = per(pooled['direct'])
            for name, _, _ in variants:
                w = per(pooled[name])
                print('%s per function (HWC2_FUNCTION_*: overhead, mean of the fastest 98 %%, ns): %s' % (
                    name, ' '.join('%d:%.0f' % (fn, w[fn] - d[fn]) for fn in sorted(w)
                                   if in_class(args.klass, fn) and fn in d)))
        if args.per_position:
            print_positions(pooled, [v[0] for v in variants])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
