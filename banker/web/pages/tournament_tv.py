"""The event TV's lists (the seating, the standings) cut into columns that fit a screen that cannot
scroll, in type as large as they leave room for (templates/tournament/_tv.html)."""

# The event TV's lists come in columns of one of these lengths, the fewest rows whose columns fit
# (the type is sized for each: .tv-rows-N in static/css/app.css, at most 5% of the screen's height,
# or 74% of it over the rows and a heading, at a line height of 1.3). A column holds about EM
# type-heights of width (a longer name is cut short); the lists take the screen's full width (94%),
# or half of it beside the other list, on a 16:9 screen.
TV_ROWS = (6, 8, 10, 13, 17, 21, 26, 34)
TV_EM = {"seating": 11, "standings": 16}


def tv_columns(lines: list, kind: str, half: bool = False) -> tuple[list[list], int]:
    """`lines` cut into columns for the event TV, and the rows per column: the largest type with
    which every line shows, with no scrolling, for up to a hundred players; of layouts in the same
    type, the one of fewest columns."""
    width = (0.46 if half else 0.94) * 16 / 9  # in screen heights

    def layout(rows: int) -> tuple[bool, float, int]:
        columns, type_size = -(-len(lines) // rows) or 1, min(0.05, 0.74 / (rows + 1) / 1.3)  # as .tv-rows-N
        fits = columns <= width / (TV_EM[kind] * type_size) or rows == TV_ROWS[-1]
        return fits, type_size if fits else 0, -columns

    rows = max(TV_ROWS, key=layout)
    return [lines[at:at + rows] for at in range(0, len(lines), rows)], rows
