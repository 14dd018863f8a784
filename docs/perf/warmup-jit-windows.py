#!/usr/bin/env python3
"""What the JIT did in each measured window of a paired experiment run with -XX:+LogCompilation
(-XX:LogFile=DIR/jit-%p.log): per trial JVM and window, the compilations that started in it (C2 ones with their
task time, longest first) and the uncommon traps taken in it, from a little before the first window on.

    docs/perf/warmup-jit-windows.py DIR [S]    (DIR holds ab.json and the jit-pidN.log files, plain or .gz;
                                                S: show the last S seconds before window 0 in spans of 3 s, default 3,
                                                and C2's task time in them when S > 3)
"""
import collections, datetime, glob, gzip, json, re, sys

d = sys.argv[1] if len(sys.argv) > 1 else '.'
before = 3 * max(1, int(sys.argv[2]) // 3) if len(sys.argv) > 2 else 3  # seconds before window 0, in spans of 3 s

def epoch(s):
    main, frac = s.rstrip('Z').split('.')
    return datetime.datetime.fromisoformat(main).replace(tzinfo=datetime.timezone.utc).timestamp() + float('0.' + frac)

wins = collections.defaultdict(list)
for t in json.load(open(d + '/ab.json'))['trials']:
    wins[t['pid']].append((epoch(t['start']), epoch(t['end']), t['pair']['index'], t['pair']['window'], t['variant']))
for f in sorted(glob.glob(d + '/jit-pid*.log*')):
    pid = int(re.search(r'pid(\d+)', f).group(1))
    txt = (gzip.open(f, 'rt', errors='replace') if f.endswith('.gz') else open(f, errors='replace')).read()
    t0 = int(re.search(r"<hotspot_log [^>]*time_ms='(\d+)'", txt).group(1)) / 1000
    names, tasks = {}, []
    for m in re.finditer(r"<task (compile_id='(\d+)'[^>]*)>(.*?)<task_done[^>]*stamp='([\d.]+)'", txt, re.S):
        a = m.group(1)
        names[m.group(2)] = re.search(r"method='([^']*)'", a).group(1)
        level = re.search(r"level='(\d)'", a)
        start = float(re.search(r"stamp='([\d.]+)'", a).group(1))
        tasks.append((start, float(m.group(4)), int(level.group(1)) if level else 4, names[m.group(2)],
                      'osr_bci' in a))
    traps = [(float(m.group(4)), m.group(1), names.get(m.group(3), '?'))
             for m in re.finditer(r"<uncommon_trap thread='\d+' reason='(\w+)' action='(\w+)'[^>]*"
                                  r"compile_id='(\d+)'[^>]*stamp='([\d.]+)'", txt)]
    ws = sorted(wins[pid])
    if not ws:
        continue  # a JVM of no window: the one that made the class-data sharing archive
    print('pid %d: windows at %s s of the JVM' % (pid, ', '.join('%.1f-%.1f' % (a - t0, b - t0) for a, b, *_ in ws)))
    first = ws[0][0] - t0
    spans = [(first - k, first - k + 3, 'the 3 s from %d s before window 0' % k if k > 3 else 'the 3 s before window 0')
             for k in range(before, 0, -3)] + [
        (a - t0, b - t0, 'pair %d window %d %s' % (p, w, v)) for a, b, p, w, v in ws]
    for lo, hi, label in spans:
        inw = [x for x in tasks if lo <= x[0] < hi]
        c2 = sorted((x for x in inw if x[2] == 4), key=lambda x: x[0] - x[1])
        tr = collections.Counter('%s %s' % (r, n.split(' ')[0] + '.' + n.split(' ')[1]) for s, r, n in traps
                                 if lo <= s < hi)
        print('  %s: %d compilations, %d by C2 (%.0f ms of C2 task time)'
              % (label, len(inw), len(c2), 1000 * sum(x[1] - x[0] for x in c2)))
        for x in c2[:6]:
            print('      %5.0f ms %s%s' % (1000 * (x[1] - x[0]), ' '.join(x[3].split(' ')[:2]), ' (OSR)' if x[4] else ''))
        for k, n in tr.most_common(6):
            print('      trap: %s%s' % (k, ' ×%d' % n if n > 1 else ''))
    if before > 3:
        print('  C2 task time in the %d s before window 0: %.0f ms'
              % (before, 1000 * sum(x[1] - x[0] for x in tasks if x[2] == 4 and first - before <= x[0] < first)))
