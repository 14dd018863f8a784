"""What the analysis scripts of docs/perf share; each imports it from its own folder."""


def groups(args):
    """Command-line arguments split at each '--' into groups of files (campaigns, arms), empty groups left out."""
    out, cur = [], []
    for a in args:
        if a == '--':
            out.append(cur)
            cur = []
        else:
            cur.append(a)
    out.append(cur)
    return [g for g in out if g]
