"""A board is its two files in rules/editions/: a copy of the app with one more board (a made-up
"zz", the UK board under another name, with its own printing) offers it and its cards on the home page in
the reader's language, names it among the API's editions, and plays on it."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]
LABEL = {"en": "Zedland: Zed City, in pounds", "fr": "Zédie : Zed-Ville, en livres",
         "pt": "Zedlândia: Cidade Zed, em libras", "ja": "ゼッド国：ゼッド市（ポンド）"}
PRINTED = {"en": "Zedland", "fr": "Zédie", "pt": "Zedlândia", "ja": "ゼッド国"}

# Run in the copy: the home page in French, a game on the new board through the API, and the API's
# refusal of an unknown board.
SCRIPT = """
import json, sys
from banker import create_app
app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite:///" + sys.argv[1] + "/game.db"}, instance_path=sys.argv[1])
client = app.test_client()
home = client.get("/?lang=fr").get_data(as_text=True)
made = client.post("/api/games", json={"edition": "zz"}).get_json()
state = client.get("/api/games/" + made["code"], headers={"Authorization": "Bearer " + made["banker_token"]}).get_json()
refused = client.post("/api/games", json={"edition": "nowhere"}).get_json()
print(json.dumps({"home": home, "code": made["code"], "state": state, "refused": refused}))
"""


def test_a_board_added_as_two_files_is_offered_and_played(tmp_path):
    copy = tmp_path / "app"
    for folder in ("banker", "templates", "static"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    editions = copy / "banker" / "rules" / "editions"
    board = json.loads((editions / "uk.json").read_text(encoding="utf-8"))
    board.update(edition="zz", label=LABEL, order=6, settings={**board["settings"], "cards": "zz"})
    (editions / "zz.json").write_text(json.dumps(board), encoding="utf-8")
    cards = json.loads((editions / "uk_cards.json").read_text(encoding="utf-8"))
    cards["printings"] = {"zz": {"chance": "chance", "chest": "chest", "label": PRINTED}}
    (editions / "zz_cards.json").write_text(json.dumps(cards), encoding="utf-8")

    ran = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=copy, capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(copy)})
    assert ran.returncode == 0, ran.stderr
    seen = json.loads(ran.stdout.splitlines()[-1])
    assert f'<option value="zz" >{LABEL["fr"]}</option>' in seen["home"]  # offered, in the reader's language
    assert f'<option value="zz" >{PRINTED["fr"]}</option>' in seen["home"]  # and its cards
    assert (seen["state"]["edition"], seen["state"]["rules"]["cards"]) == ("zz", "zz")  # played on it
    assert seen["refused"]["error"]["message"].endswith("us, uk, fr, pt, ja, zz.")
