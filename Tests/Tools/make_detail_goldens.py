#!/usr/bin/env python3
"""Writes Fixtures/golden/show/<id>.txt: the detail text of every recorded
species, from a Python reading of spec/detail-view.md that shares no code
with the Swift renderer, so the end-to-end tests compare two independent
implementations. Run by `make goldens`; review the diff before committing.
"""

import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "..", "Fixtures")
INT64 = range(-(2**63), 2**63)


def swift_int(text):
    """What Swift's Int(String) accepts: an optional sign and ASCII digits."""
    if isinstance(text, str) and re.fullmatch(r"[+-]?[0-9]+", text) and int(text) in INT64:
        return int(text)
    return None


def colors(species, key):
    value = species.get(key)
    return [part.strip(" \t") for part in value.split(",")] if isinstance(value, str) else None


def description(species):
    name = species.get("name")
    text = ""
    if name is not None:
        if species.get("language") is not None:
            text += f"Members of the {name} species speak {species['language']}. "
        height = swift_int(species.get("average_height"))
        if height is not None:
            text += f"The {name} can be identified by their height, typically {height}cm."
        eyes, skin, hair = (colors(species, k) for k in ("eye_colors", "skin_colors", "hair_colors"))
        if eyes is not None and skin is not None and hair is not None:
            text += (f"\n\nTypical coloring includes eyes:\n\t{', '.join(eyes)}"
                     f"\nhair:\n\t{', '.join(hair)}\nand skin:\n\t{', '.join(skin)}")
    lifespan = species.get("average_lifespan")
    if lifespan is not None:
        text += f"\n\nTheir average lifespan is {lifespan}"
        if swift_int(lifespan) is not None:
            text += " years"
    return text + "."


def main():
    target = os.path.join(FIXTURES, "golden", "show")
    os.makedirs(target, exist_ok=True)
    for page in range(1, 5):
        with open(os.path.join(FIXTURES, "swapi", f"species-page-{page}.json"), encoding="utf-8") as file:
            for species in json.load(file)["results"]:
                number = species["url"].rstrip("/").rsplit("/", 1)[1]
                with open(os.path.join(target, f"{number}.txt"), "w", encoding="utf-8", newline="") as out:
                    out.write(f"{species.get('name') or ''}\n\n{description(species)}\n")


if __name__ == "__main__":
    main()
