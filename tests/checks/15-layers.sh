#!/usr/bin/env bash
# group: layers (make layers): include lines point one way
bash mk/layers.sh
exit 0
