import json, sys
# The tables of README.md and lib/measurements.md from an unpacked gpu.tgz:
#   python3 mdtable.py f32|dt
import os
def load(fn):
    d = {}
    if not os.path.exists(fn):
        return d
    for l in open(fn):
        if l.startswith('{'):
            j = json.loads(l); d[j['name']] = j
    return d
un = load('ours-untuned.json'); tu = load('ours-tuned.json')
for extra in ('tune-ab.json', 'tune-c.json'):
    for k, v in load(extra).items(): tu.setdefault(k, v)
th = {}
for l in open('torch.json'):
    j = json.loads(l)
    if 'copy_gbs' in j: copy = j['copy_gbs']
    else: th[j['key']] = j
lay = {'abx': 'channels-first', 'axb': 'channels-last'}
def label(k):
    f = k.split('_'); d, tag, dt, nc, sz = f[0], f[-4], f[-3], f[-2], f[-1]; alg = '_'.join(f[1:-4])
    a, b = sz.split('-'); a = a.split('x'); b = b.split('x')
    s = f"{a[0]}->{b[0]}" if a[0] == a[1] and b[0] == b[1] else f"{a[1]}x{a[0]}->{b[1]}x{b[0]}"
    alg = {'aa': 'aa linear', 'aac': 'aa cubic'}.get(alg, alg)
    return d, alg, lay[tag], dt, nc.replace('N', 'N').replace('C', ' C'), s
sel = sys.argv[1]
rows = []
for k, u in un.items():
    d, alg, tag, dt, nc, s = label(k)
    if sel == 'f32' and not (dt == 'f32' or (dt == 'u8' and 'C3' in nc)): continue
    if sel == 'dt' and (dt == 'f32' or 'C3' in nc): continue
    t = tu[k]; tt = th.get(k, {}).get('ms')
    gbs = u['bytes'] / t['min_ms'] / 1e6
    r = lambda x: f"{x/tt:.2f}" if tt else "-"
    name = f"{d} {alg} {tag} {s}" if sel == 'dt' or nc == 'N8 C64' else f"{d} {alg} {tag} {nc} {s}"
    if sel == 'dt': name = f"{dt} " + name
    rows.append(f"| {name} | {u['min_ms']:.3f} | {t['min_ms']:.3f} | {tt:.3f} | {r(u['min_ms'])} | {r(t['min_ms'])} | {gbs:.0f} | {100*gbs/copy:.0f}% |" if tt else
                f"| {name} | {u['min_ms']:.3f} | {t['min_ms']:.3f} | - | - | - | {gbs:.0f} | {100*gbs/copy:.0f}% |")
print(f"copy {copy:.0f}")
print("| problem | untuned ms | shipped ms | PyTorch ms | untuned / PyTorch | shipped / PyTorch | GB/s (shipped) | % of copy |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
print("\n".join(rows))
