#!/usr/bin/env bash
# usage: eval/keep26_gen.sh ROUND CHECKOUT TAG  -> ${KEEP26_DIR:-/tmp/keep26}/ROUND/TAG/DECK.json
# ROUND: r9 | r10 | r11 (decks: eval/heldout_decks/DECK.txt for the keys of eval/heldout_key_ideas_ROUND.json,
# rendered by eval/deck_pdf.py); one KB_HOME per round, ingested once; `kb quiz generate -n 12 --offline` per deck
# with the code of CHECKOUT. Then: python eval/quiz_diff.py /tmp/keep26/ROUND/A /tmp/keep26/ROUND/B
set -uo pipefail
R=$1; CO=$2; TAG=$3; W=${KEEP26_DIR:-/tmp/keep26}/$R; HERE=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-/work/main/.venv/bin/python}
mkdir -p "$W/decks" "$W/$TAG"
export PYTHONPATH=$CO KB_HOME=$W/.kb
cd "$W"
if [ ! -d "$W/.kb" ]; then
  for d in $($PY -c "import json,sys; print(' '.join(k[:-4] for k in json.load(open(sys.argv[1])) if k.endswith('.pdf')))" \
             "$HERE/eval/heldout_key_ideas_$R.json"); do
    $PY "$HERE/eval/deck_pdf.py" "$HERE/eval/heldout_decks/$d.txt" -o "decks/$d.pdf" >/dev/null
  done
  $PY -m kb.cli ingest decks/ 2>&1 | tail -1
fi
for p in decks/*.pdf; do
  d=$(basename "$p" .pdf)
  $PY -m kb.cli quiz generate -n 12 --offline --source "decks/$d.pdf" -o "$TAG/$d.json" --force >/dev/null 2>&1 || echo "fail $d"
done
