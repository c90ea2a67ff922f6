#!/usr/bin/env bash
# group: layers (make layers): include lines point one way
bash scripts/layers.sh
exit 0
