"""A tournament through its JSON API (docs/api.md, Tournaments): 16 players, three rounds of four
tables of four, every table's game played to its end through the game API with the players' own
event tokens, and every refusal answered with a code and changing nothing."""

from banker.models import db
from banker.store import tournaments

EVENT = {"name": "Club night", "edition": "us", "rules": {"preset": "jma"}, "rounds": 3, "round_minutes": 60,
         "table_size": 4, "scoring": {"kind": "placings", "placings": [4, 2, 1, 0]}, "final": 0}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create(client, **changes) -> dict:
    answer = client.post("/api/events", json={**EVENT, **changes})
    assert answer.status_code == 201, answer.json
    return answer.json


def refused(answer, status: int, code: str) -> None:
    assert answer.status_code == status, answer.json
    assert answer.json["error"]["code"] == code and answer.json["error"]["message"]


def test_a_three_round_evening_of_sixteen_players_with_every_refusal(client, app):
    event = create(client)
    code, organiser = event["code"], bearer(event["organiser_token"])
    assert event["register_url"].endswith(f"/e/{code}/register")
    state = lambda: client.get(f"/api/events/{code}").json  # noqa: E731

    tokens = {}
    for n in range(16):
        answer = client.post(f"/api/events/{code}/players", json={"name": f"Player {n}"})
        assert answer.status_code == 201
        tokens[answer.json["player_id"]] = answer.json["player_token"]
    before = state()

    # Refusals, each changing nothing.
    refused(client.post(f"/api/events/{code}/players", json={"name": "player 3"}), 409, "name_taken")
    refused(client.post(f"/api/events/{code}/players", json={"name": ""}), 400, "missing_field")
    refused(client.post(f"/api/events/{code}/players", json={"name": "Zed", "seat": 2}), 400, "unknown_field")
    refused(client.post(f"/api/events/{code}/players", data="junk"), 400, "bad_request")
    refused(client.post("/api/events/ZZZZZ/players", json={"name": "Zed"}), 404, "not_found")
    refused(client.post(f"/api/events/{code}/actions", json={"type": "seat_round"}), 401, "unauthorized")
    refused(client.post(f"/api/events/{code}/actions", json={"type": "seat_round"},
                        headers=bearer(tokens[1])), 401, "unauthorized")
    refused(client.post(f"/api/events/{code}/actions", json={"type": "fly"}, headers=organiser), 400, "unknown_action")
    refused(client.post(f"/api/events/{code}/actions", json={"type": "start_round"}, headers=organiser), 409, "no_round")
    refused(client.post(f"/api/events/{code}/actions", json={"type": "undo"}, headers=organiser), 409, "not_undoable")
    refused(client.post("/api/events", json={**EVENT, "table_size": 9}), 400, "bad_field")
    refused(client.post("/api/events", json={**EVENT, "scoring": {"kind": "golf"}}), 400, "bad_setting")
    refused(client.post("/api/events", json={**EVENT, "colour": "red"}), 400, "unknown_setting")
    assert state() == before

    met: set[frozenset] = set()
    for number in (1, 2, 3):
        seated = client.post(f"/api/events/{code}/actions", json={"type": "seat_round"}, headers=organiser)
        assert seated.status_code == 200, seated.json
        refused(client.post(f"/api/events/{code}/actions", json={"type": "seat_round"}, headers=organiser),
                409, "round_not_over")
        tables = state()["rounds"][-1]["tables"]
        assert [len(t["seats"]) for t in tables] == [4, 4, 4, 4] and all(t["game"] for t in tables)
        for t in tables:  # 16 players in tables of 4: nobody meets anyone twice
            pairs = {frozenset((a, b)) for a in t["seats"] for b in t["seats"] if a < b}
            assert not pairs & met
            met |= pairs
        assert client.post(f"/api/events/{code}/actions", json={"type": "start_round"},
                           headers=organiser).status_code == 200
        assert state()["clock"]["ends_at"]
        if number == 1:  # the organiser calls the last turn: every table's game hears it
            called = client.post(f"/api/events/{code}/actions", json={"type": "last_turn"}, headers=organiser)
            assert called.status_code == 200 and state()["clock"]["last_turn"]
            assert all(client.get(f"/api/games/{t['game']}", headers=organiser).json["last_turn"] for t in tables)
        for t in tables:
            # A player's event token acts for their seat in their table's game, as a seat's token does.
            first, second = (bearer(tokens[p]) for p in t["seats"][:2])
            assert client.get(f"/api/games/{t['game']}", headers=first).status_code == 200
            refused(client.post(f"/api/games/{t['game']}/actions", json={"type": "roll", "dice": [1, 2]},
                                headers=second), 409, "not_your_turn")
            rolled = client.post(f"/api/games/{t['game']}/actions", json={"type": "roll", "dice": [1, 2]},
                                 headers=first)
            assert rolled.status_code == 200, rolled.json
            # The organiser's token is each table's banker's: it ends the game, and the result is scored.
            ended = client.post(f"/api/games/{t['game']}/actions", json={"type": "end_game"}, headers=organiser)
            assert ended.status_code == 200, ended.json
        played = state()["rounds"][-1]
        assert played["status"] == "ended"
        assert all(sorted(r["points"] for r in t["results"]) in ([0, 1, 1, 4], [0, 0, 0, 7], [1, 1, 1, 4])
                   or sum(r["points"] for r in t["results"]) <= 7 for t in played["tables"])
    final = state()
    assert final["status"] == "ended"
    assert sum(s["points"] for s in final["standings"]) == sum(
        r["points"] for rnd in final["rounds"] for t in rnd["tables"] for r in t["results"])
    refused(client.post(f"/api/events/{code}/actions", json={"type": "seat_round"}, headers=organiser),
            409, "event_over")

    # The organiser corrects a result with a memo, then undoes the correction.
    corrected = client.post(f"/api/events/{code}/actions", headers=organiser, json={
        "type": "correct_result", "round": 3, "table": 1, "points": {str(final["rounds"][2]["tables"][0]["seats"][0]): 9},
        "memo": "Scorer's slip"})
    assert corrected.status_code == 200, corrected.json
    refused(client.post(f"/api/events/{code}/actions", headers=organiser,
                        json={"type": "correct_result", "table": 1, "points": {"1": 9}}), 400, "missing_field")
    assert client.post(f"/api/events/{code}/actions", json={"type": "undo"}, headers=organiser).status_code == 200
    assert state()["rounds"] == final["rounds"]

    with app.app_context():
        tournament = tournaments.find_tournament(code)
        assert tournaments.replay(tournament).to_dict() == tournament.state
        db.session.remove()
