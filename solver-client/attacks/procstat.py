"""What the attack scripts read of the server process from /proc (Linux)."""


def rss(pid):
    """The resident memory of process `pid`, in bytes."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")
