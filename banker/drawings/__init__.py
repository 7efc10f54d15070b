"""The app's pictures drawn as SVG: the net-worth chart of a game's end (chart.py), the story's bars,
flow and landings (pictures.py)."""
