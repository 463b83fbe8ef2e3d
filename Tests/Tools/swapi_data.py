"""The SWAPI data set of Fixtures/swapi-data (Django fixtures, BSD licence in
its LICENSE), and its resources as swapi.dev writes them.

Used by swapi_server.py, which serves it in each dialect, and by
make_bundle.py, which builds it into species. Python 3 standard library only.
"""

import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "Fixtures", "swapi-data")
KINDS = ("species", "people", "planets", "films")


def swapi_date(value):
    """`2014-12-10T13:52:11.567Z` as swapi.dev writes it: six fraction digits."""
    match = re.fullmatch(r"(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z", value)
    return f"{match.group(1)}.{(match.group(2) or '').ljust(6, '0')[:6]}Z"


class DataSet:
    def __init__(self, directory=DATA):
        self.records = {}
        for kind in KINDS:
            with open(os.path.join(directory, f"{kind}.json"), encoding="utf-8") as file:
                self.records[kind] = {item["pk"]: item["fields"] for item in json.load(file)}

    def ids(self, kind):
        return sorted(self.records[kind])

    def get(self, kind, number):
        return self.records[kind].get(number)

    def _films_with(self, field, number):
        return [pk for pk in self.ids("films") if number in self.records["films"][pk][field]]

    def drf(self, kind, number, link):
        """Resource `number` of `kind` with swapi.dev's keys in swapi.dev's
        order; `link(kind, id)` writes each URL."""
        fields = self.records[kind][number]
        if kind == "species":
            body = {key: fields[key] for key in (
                "name", "classification", "designation", "average_height", "skin_colors", "hair_colors",
                "eye_colors", "average_lifespan")}
            body["homeworld"] = link("planets", fields["homeworld"]) if fields["homeworld"] else None
            body["language"] = fields["language"]
            body["people"] = [link("people", pk) for pk in fields["people"]]
            body["films"] = [link("films", pk) for pk in self._films_with("species", number)]
        elif kind == "people":
            body = {key: fields[key] for key in (
                "name", "height", "mass", "hair_color", "skin_color", "eye_color", "birth_year", "gender")}
            body["homeworld"] = link("planets", fields["homeworld"])
            body["films"] = [link("films", pk) for pk in self._films_with("characters", number)]
            body["species"] = [link("species", pk) for pk in self.ids("species")
                               if number in self.records["species"][pk]["people"]]
        elif kind == "planets":
            body = {key: fields[key] for key in (
                "name", "rotation_period", "orbital_period", "diameter", "climate", "gravity", "terrain",
                "surface_water", "population")}
            body["residents"] = [link("people", pk) for pk in self.ids("people")
                                 if self.records["people"][pk]["homeworld"] == number]
            body["films"] = [link("films", pk) for pk in self._films_with("planets", number)]
        else:
            body = {key: fields[key] for key in (
                "title", "episode_id", "opening_crawl", "director", "producer", "release_date")}
            for key, target in (("characters", "people"), ("planets", "planets"), ("starships", "starships"),
                                ("vehicles", "vehicles"), ("species", "species")):
                body[key] = [link(target, pk) for pk in fields[key]]
        body["created"] = swapi_date(fields["created"])
        body["edited"] = swapi_date(fields["edited"])
        body["url"] = link(kind, number)
        return body
