# make bench: python3 on work that copies bytes (bench/preloaded/real.sh
# runs it with the drop-in library and without): slices of every size,
# joins, bytearray copies, inserts and deletes that move the rest of the
# array, and the small copies of building strings and lists. It prints a
# checksum so that the work cannot be skipped; the figure is its time.
import hashlib

block = hashlib.sha256(b"uarchcopy").digest() * 32768  # 1 MiB
total = 0
for round in range(12):
    parts = []
    for off in range(0, len(block) - 8192, 1031):
        parts.append(block[off:off + (off * 7 + round) % 4096])
    joined = b"".join(parts)
    work = bytearray(joined)
    for k in range(400):
        at = (k * 7919) % (len(work) - 70000)
        work[at:at + 65536] = block[k * 64:k * 64 + 65536]
        del work[at:at + 1 + k % 255]
        work[at:at] = block[:1 + k % 511]
    small = [block[i:i + 1 + i % 64] for i in range(0, 1 << 20, 13)]
    text = "".join(chr(97 + b % 26) for b in block[:200000])
    words = text.split("q")
    total += len(work) + len(small) + len(" ".join(words)) + len(bytes(work[1:]))
print(total)
