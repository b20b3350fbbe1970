"""The fleet's impaired wire: a learning Ethernet switch in user space over the bridge
namespace's ports (AF_PACKET), which holds every frame for a delay and drops a share of them
at random, as `tc qdisc … netem delay … loss …` would on each port (used where the kernel has
no netem). Run in the bridge namespace with the ports taken out of their kernel bridges:

    python3 fleet-wire.py <delay ms> <loss %> <port,port,…> [<port,port,…> …]

Each comma list is one switch (the LAN, the database network). Frames flow only between the
ports of one list. Runs until SIGTERM.
"""

import heapq
import random
import select
import signal
import socket
import sys
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4

delay = float(sys.argv[1]) / 1000
loss = float(sys.argv[2]) / 100
switches = [group.split(",") for group in sys.argv[3:]]

sockets = {}
group_of = {}
for group in switches:
    for port in group:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        s.bind((port, 0))
        s.setblocking(False)
        sockets[s.fileno()] = (port, s)
        group_of[port] = group
by_port = {port: s for port, s in sockets.values()}
learned = {}
due = []
order = 0
running = True


def stop(*_):
    global running
    running = False


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
print("wire up", flush=True)

while running:
    timeout = max(0.0, due[0][0] - time.monotonic()) if due else 0.5
    readable, _, _ = select.select(list(sockets), [], [], timeout)
    for fd in readable:
        port, s = sockets[fd]
        while True:
            try:
                frame, address = s.recvfrom(65535)
            except BlockingIOError:
                break
            if address[2] == PACKET_OUTGOING or len(frame) < 14:
                continue
            learned[frame[6:12]] = port
            if random.random() < loss:
                continue
            target = learned.get(frame[0:6])
            outs = [target] if target and target != port else [p for p in group_of[port] if p != port]
            order += 1
            heapq.heappush(due, (time.monotonic() + delay, order, outs, frame))
    now = time.monotonic()
    while due and due[0][0] <= now:
        _, _, outs, frame = heapq.heappop(due)
        for out in outs:
            try:
                by_port[out].send(frame)
            except OSError:
                pass
