# Peer: pickle round trip (protocol 5): pickle.dumps the record object, pickle.loads it back.
"""Round trip through pickle. Usage: python3 peer_pickle.py FILE OPS"""

import pickle
import sys

from common import Job


def main() -> None:
    job = Job(sys.argv)
    dumps, loads, protocol = pickle.dumps, pickle.loads, pickle.HIGHEST_PROTOCOL

    def roundtrip(record):
        message = dumps(record, protocol)
        return loads(message), len(message)

    job.time_roundtrip(roundtrip)


if __name__ == "__main__":
    main()
