"""What the app says, in the reader's language: the languages offered and the one chosen
(languages.py), amounts of money (amounts.py), the squares' and editions' names (names.py), what
happened, an entry and a refusal in words (narrate.py), the players, squares, amounts and buildings
those sentences name (phrases.py), the names and labels of tokens, groups, fields and buttons
(labels.py), the cards' printed words (card_texts.py) and what a card will do (card_effects.py),
the rules in force (rulebook.py). Below the screens, which tell the game with them, and the web."""
