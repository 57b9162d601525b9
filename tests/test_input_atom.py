"""The arXiv API's Atom feed as an input (``curl 'http://export.arxiv.org/api/query?...' |
extract run -``, or a saved ``.xml``/``.atom``): one record an entry, its arXiv id the record's id,
its metadata under ``meta``, its wrapped summary read as the unwrapped abstract; an error entry,
a broken feed, a document type declaration and a feed of another kind are reported problems."""

from __future__ import annotations

import gzip

from click.testing import CliRunner

from conftest import read_jsonl
from extract.cli import main
from extract.inputs import Item, Problem, count_inputs, expand, read_inputs

ENTRY = """  <entry>
    <id>http://arxiv.org/abs/{id}</id>
    <updated>2024-01-05T18:59:59Z</updated>
    <published>2024-01-02T18:59:59Z</published>
    <title>{title}</title>
    <summary>  {summary}
</summary>
    <author>
      <name>Ada Lovelace</name>
    </author>
    <author>
      <name>Alan Turing</name>
    </author>
    <arxiv:doi xmlns:arxiv="http://arxiv.org/schemas/atom">10.1000/xyz123</arxiv:doi>
    <link title="doi" href="http://dx.doi.org/10.1000/xyz123" rel="related"/>
    <arxiv:comment xmlns:arxiv="http://arxiv.org/schemas/atom">12 pages, 3 figures</arxiv:comment>
    <link href="http://arxiv.org/abs/{id}" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/{id}" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.CL" scheme="http://arxiv.org/schemas/atom"/>
    <category term="cs.CL" scheme="http://arxiv.org/schemas/atom"/>
    <category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
"""
HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?search_query%3Dall%3Atensor&amp;max_results%3D2" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query=all:tensor&amp;id_list=&amp;start=0&amp;max_results=2</title>
  <id>http://arxiv.org/api/cHxbiOdZaP56ODnBPIenZhzg5f8</id>
  <updated>2024-01-06T00:00:00-05:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">2</opensearch:totalResults>
"""
SUMMARY = ("This paper proposes a new architecture that exploits tensor product\nrepresentations. "
           "We call it the Tensor Product Generation Network\n(TPGN), and apply it to image captioning. "
           "TPGN reaches 31.2 BLEU-4 on\nMS COCO, 2.1 points above the LSTM baseline.")
FEED = HEAD + ENTRY.format(id="2401.01234v2", title="A Neural-Symbolic Approach to\n  Image Captioning",
                           summary=SUMMARY) \
    + ENTRY.format(id="hep-ex/0307015v1", title="Multi-Electron Production at HERA",
                   summary="Multi-electron production is studied at high electron transverse\nmomentum "
                           "with the H1 detector.") + "</feed>\n"


def _read(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    files, _ = expand([path])
    return list(read_inputs(files)), files


def test_each_entry_is_an_item_with_its_arxiv_id_title_and_metadata(tmp_path):
    got, files = _read(tmp_path, "query.xml", FEED)
    assert [type(x) for x in got] == [Item, Item]
    first, second = got
    assert (first.id, second.id) == ("2401.01234v2", "hep-ex/0307015v1")
    assert first.title == "A Neural-Symbolic Approach to Image Captioning"
    assert first.text == SUMMARY                   # as written: offsets are into this text
    assert first.meta == {"published": "2024-01-02T18:59:59Z", "updated": "2024-01-05T18:59:59Z",
                          "authors": ["Ada Lovelace", "Alan Turing"], "categories": ["cs.CL", "cs.LG"],
                          "primary_category": "cs.CL", "doi": "10.1000/xyz123", "comment": "12 pages, 3 figures",
                          "url": "http://arxiv.org/abs/2401.01234v2", "pdf": "http://arxiv.org/pdf/2401.01234v2"}
    assert first.source.endswith("query.xml:8")          # the line its <entry> opens on
    assert count_inputs(files) == 2


def test_a_run_on_the_feed_reads_the_wrapped_summary_unwrapped(tmp_path):
    feed = tmp_path / "query.atom"
    feed.write_text(FEED)
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["run", str(feed), "-o", str(out), "--no-cache", "-q"])
    assert r.exit_code == 0, r.output
    recs = {x["id"]: x for x in read_jsonl(out)}
    ext = recs["2401.01234v2"]["extraction"]
    assert {m["text"] for m in ext["method_names"]} >= {"Tensor Product Generation Network", "TPGN"}
    assert [d["text"] for d in ext["datasets"]] == ["MS COCO"]
    for span in [*ext["method_names"], *ext["datasets"]]:
        assert SUMMARY[span["start"]:span["end"]] == span["text"]
    bleu = next(n for n in ext["numbers"] if n["text"] == "31.2")
    assert bleu["method"]["text"] == "TPGN" and bleu["dataset"]["text"] == "MS COCO"
    assert recs["2401.01234v2"]["meta"]["primary_category"] == "cs.CL"


def test_standard_input_is_known_as_a_feed(tmp_path):
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["run", "-", "-o", str(out), "--no-cache", "--label", "q"], input=FEED)
    assert r.exit_code == 0, r.output
    assert "read as atom" in r.stderr
    assert sorted(x["id"] for x in read_jsonl(out)) == ["2401.01234v2", "hep-ex/0307015v1"]


def test_an_error_the_api_reports_is_a_problem_with_its_message(tmp_path):
    error = ("  <entry>\n    <id>http://arxiv.org/api/errors#incorrect_id_format_for_1234.12345</id>\n"
             "    <title>Error</title>\n    <summary>incorrect id format for 1234.12345</summary>\n  </entry>\n")
    got, _ = _read(tmp_path, "bad.xml", HEAD + error + "</feed>\n")
    (p,) = got
    assert isinstance(p, Problem) and p.reason == "the feed reports an error: incorrect id format for 1234.12345"


def test_a_feed_broken_mid_way_keeps_the_entries_before_it(tmp_path):
    cut = FEED[:FEED.index("Multi-Electron")]
    got, _ = _read(tmp_path, "cut.xml.gz", gzip.compress(cut.encode()))
    assert isinstance(got[0], Item) and got[0].id == "2401.01234v2"
    (p,) = got[1:]
    assert isinstance(p, Problem) and p.reason.startswith("not well-formed XML")


def test_a_document_type_declaration_is_refused_before_anything_is_expanded(tmp_path):
    bomb = ('<?xml version="1.0"?>\n<!DOCTYPE feed [\n <!ENTITY a "aaaaaaaaaa">\n'
            ' <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n]>\n'
            '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>x</id><summary>&b;</summary></entry></feed>\n')
    got, _ = _read(tmp_path, "bomb.xml", bomb)
    (p,) = got
    assert isinstance(p, Problem) and "document type declaration" in p.reason and p.source.endswith(":2")


def test_xml_of_another_kind_is_no_feed(tmp_path):
    got, _ = _read(tmp_path, "pom.xml", '<?xml version="1.0"?>\n<project><name>x</name></project>\n')
    (p,) = got
    assert isinstance(p, Problem) and p.reason == "not an Atom feed (its root is <project>)"


def test_an_entry_without_a_summary_is_skipped(tmp_path):
    entry = "  <entry>\n    <id>http://arxiv.org/abs/2402.00001v1</id>\n    <title>Only a title</title>\n  </entry>\n"
    got, _ = _read(tmp_path, "q.xml", HEAD + entry + "</feed>\n")
    (p,) = got
    assert isinstance(p, Problem) and p.skipped and p.id == "2402.00001v1"
