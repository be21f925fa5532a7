"""Disassemble one nmethod of a JDK -XX:+PrintAssembly log printed without hsdis (hex words): python3 hex2asm.py LOG INDEX,
INDEX counting the log's "Compiled method" headers from 0; writes the code from its entry point to objdump (binary, x86-64)."""
# Turn one compiled method of -XX:+PrintAssembly (no hsdis: hex words) into a binary and disassemble it.
import re, sys, subprocess, tempfile
text = open(sys.argv[1]).read().split('\n')
which = int(sys.argv[2])  # index of the 'Compiled method' block
starts = [i for i, l in enumerate(text) if l.startswith('Compiled method')]
blk = text[starts[which]: starts[which + 1] if which + 1 < len(starts) else len(text)]
base = None; data = bytearray(); sect = False
for l in blk:
    if '[Verified Entry Point]' in l or '[Entry Point]' in l: sect = True
    if l.startswith('[Exception Handler]') or l.startswith('[Stub Code]'): sect = False
    m = re.match(r'\s*(0x[0-9a-f]+): ((?:[0-9a-f]{2,8} ?\|? ?)+)\s*$', l)
    if m and sect:
        addr = int(m.group(1), 16)
        hexs = m.group(2).replace('|', '').split()
        b = bytes.fromhex(''.join(hexs))
        if base is None: base = addr
        if addr - base != len(data):
            # gap or overlap: align by address
            if addr - base > len(data): data += b'\x90' * (addr - base - len(data))
            else: data = data[:addr - base]
        data += b
with tempfile.NamedTemporaryFile(delete=False) as f: f.write(data)
print(subprocess.run(['objdump', '-D', '-b', 'binary', '-mi386:x86-64', f'--adjust-vma={hex(base)}', f.name], capture_output=True, text=True).stdout)
