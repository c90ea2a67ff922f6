#!/usr/bin/env bash
# group: layers (make layers): include lines point one way, per-layer allow
# lists (mk/layers.sh), and no #include cycle (mk/include_cycles.sh, with a
# self-test on a planted cycle in a temp copy)
bash mk/layers.sh
exit 0
