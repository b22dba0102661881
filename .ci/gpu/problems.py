# The GPU session's problem list: dir alg tag dt N C IH IW OH OW, one tuple a problem.
# alg: nearest linear cubic aa (linear+antialias) aac (cubic+antialias) max avg_np
def problems():
    P = []
    for l in open(__file__.rsplit('/', 1)[0] + '/problems.txt'):
        f = l.split()
        if not f or f[0].startswith('#'): continue
        d, alg, tag, N, C, I, O = f
        P.append(('A', d, alg, tag, 'f32', int(N), int(C), int(I), int(I), int(O), int(O)))
    P += [('B', 'fwd', 'cubic', 'abx', 'f32', 1, 1152, 64, 64, 28, 28),
          ('B', 'fwd', 'cubic', 'abx', 'f32', 1, 1152, 64, 64, 16, 16),
          ('B', 'fwd', 'aac', 'abx', 'f32', 64, 3, 512, 512, 224, 224),
          ('B', 'fwd', 'aa', 'axb', 'u8', 1, 3, 1080, 1920, 224, 224),
          ('B', 'fwd', 'linear', 'axb', 'u8', 1, 3, 1080, 1920, 2160, 3840),
          ('B', 'fwd', 'aa', 'abx', 'f32', 8, 64, 512, 512, 128, 128)]
    for dt in ('f16', 'bf16', 'u8'):
        for tag in ('abx', 'axb'):
            for alg, I, O in (('nearest', 256, 512), ('linear', 256, 512), ('linear', 512, 256),
                              ('cubic', 256, 512), ('aa', 512, 128), ('max', 512, 256),
                              ('avg_np', 512, 256)):
                P.append(('C', 'fwd', alg, tag, dt, 8, 64, I, I, O, O))
            if dt != 'u8':
                P.append(('C', 'bwd', 'linear', tag, dt, 8, 64, 256, 256, 512, 512))
    return P

def key(p):
    g, d, alg, tag, dt, N, C, IH, IW, OH, OW = p
    return f"{d}_{alg}_{tag}_{dt}_N{N}C{C}_{IH}x{IW}-{OH}x{OW}"

def batch_line(p):
    g, d, alg, tag, dt, N, C, IH, IW, OH, OW = p
    desc = f"mb{N}ic{C}ih{IH}iw{IW}oh{OH}ow{OW}"
    a, aa = alg, 'false'
    if alg in ('max', 'avg_np'): desc += "kh3kw3sh2sw2ph1pw1"
    if alg == 'aa': a, aa = 'linear', 'true'
    if alg == 'aac': a, aa = 'cubic', 'true'
    dr = 'FWD_I' if d == 'fwd' else 'BWD_D'
    return f'--reset --dir={dr} --alg={a} --antialias={aa} --sdt={dt} --ddt={dt} --tag={tag} {desc}n"{key(p)}"'

# The modes a separable plan takes by default: cubic and antialiased.
SEPARABLE = ('cubic', 'aa', 'aac')

if __name__ == '__main__':
    import sys
    groups = sys.argv[1] if len(sys.argv) > 1 else 'ABC'
    only_sep = len(sys.argv) > 2 and sys.argv[2] == 'sep'
    for p in problems():
        if p[0] in groups and (not only_sep or (p[2] in SEPARABLE and p[1] == 'fwd')):
            print(batch_line(p))
