#!/usr/bin/env python3
"""Write a pipeline run log (a JSON array of spec log entries, 2.3) for the
benchmark: N entries whose outputs are Base64 of a task result (a JSON array
of rows, 100-500 bytes, as a query task returns), about 680 bytes an entry:
200 000 entries make about 136 MB.

usage: gen_log.py N FILE [SEED [HUGE_MIB]] [--aes-key-file KEY]

With HUGE_MIB, the middle entry's output is HUGE_MIB MiB of Base64 instead
(an output as large as the service allows). With --aes-key-file, a random
256-bit key is written to KEY (64 hex digits) and every output is Base64 of
the result sealed with AES-256-GCM as the spec has it (a 12-byte nonce, the
ciphertext, the 16-byte tag; no associated data), for `--decrypt-key-file`.
"""
import base64
import datetime
import json
import random
import sys
import uuid


def main():
    args = sys.argv[1:]
    seal = None
    if "--aes-key-file" in args:
        at = args.index("--aes-key-file")
        seal = sealer(args[at + 1])
        del args[at:at + 2]
    n, path = int(args[0]), args[1]
    rng = random.Random(int(args[2]) if len(args) > 2 else 1)
    huge = int(args[3]) if len(args) > 3 else 0
    tasks = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(5)]
    types = ["query", "condition", "aggregator", "api_call", "notification"]
    run = None
    with open(path, "w") as f:
        f.write("[")
        for i in range(n):
            t = i % len(tasks)
            if t == 0:
                run = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            text = result(rng).encode()
            out = base64.b64encode(seal(rng, text) if seal else text).decode()
            if huge and i == n // 2:
                out = base64.b64encode(rng.randbytes(huge * 1024 * 1024 * 3 // 4)).decode()
            sec = 1705170000 + i * 7
            entry = {
                "workflow_run_uuid": run,
                "task_uuid": tasks[t],
                "task_type": types[t],
                "is_successful": rng.random() > 0.1,
                "duration": rng.randint(5, 90000),
                "output": out,
                "metric_value": rng.randint(0, 5000),
                "executed_at": "%04d-%02d-%02dT%02d:%02d:%02dZ" % civil(sec),
            }
            if i:
                f.write(",")
            f.write(json.dumps(entry, separators=(",", ":")))
        f.write("]\n")


def result(rng):
    """A task result: JSON rows until the text is 100-500 bytes long."""
    want, rows, text = rng.randint(100, 500), [], "[]"
    while len(text) < want:
        rows.append({
            "id": rng.randint(1, 99999),
            "name": "".join(rng.choice("abcdefghij") for _ in range(rng.randint(3, 12))),
            "value": round(rng.random() * 1000, 2),
            "ok": rng.random() > 0.5,
        })
        text = json.dumps(rows, separators=(",", ":"))
    return text


def sealer(key_path):
    """A function sealing bytes with a fresh key, written to key_path."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    key = random.SystemRandom().randbytes(32)
    with open(key_path, "w") as f:
        f.write(key.hex() + "\n")
    aes = AESGCM(key)

    def seal(rng, data):
        nonce = rng.randbytes(12)
        return nonce + aes.encrypt(nonce, data, None)

    return seal


def civil(sec):
    d = datetime.datetime.fromtimestamp(sec, datetime.timezone.utc)
    return d.year, d.month, d.day, d.hour, d.minute, d.second


if __name__ == "__main__":
    main()
