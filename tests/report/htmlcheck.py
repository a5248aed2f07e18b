"""Read a report page with the standard library's HTML parser: every element, attribute and text."""

from __future__ import annotations

from html.parser import HTMLParser


class Page(HTMLParser):
    """Elements as ``(tag, attrs)`` in order, the text of each, and the text of the whole page."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.texts: list[str] = []
        self.style_texts: list[str] = []
        self._in_style = False
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        self._in_style = tag == "style"

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag == "style":
            self._in_style = False

    def handle_data(self, data):
        (self.style_texts if self._in_style else self.texts).append(data)

    def tags(self, name: str) -> list[dict[str, str | None]]:
        return [attrs for tag, attrs in self.elements if tag == name]

    @property
    def text(self) -> str:
        return "".join(self.texts)
