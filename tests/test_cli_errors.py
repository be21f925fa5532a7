"""Bad usage and bad input: one clear line on stderr and exit code 2, never a traceback."""

import pytest

from conftest import TEST_SUITES


def assert_one_line_error(result, *needles):
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("iorace: error: ")
    assert "Traceback" not in result.stderr
    for n in needles:
        assert n in lines[0]


def test_unknown_suite(iorace):
    assert_one_line_error(iorace(["run", "nosuchsuite"]), "unknown suite 'nosuchsuite'", "readbytes")


def test_unknown_variant(iorace):
    assert_one_line_error(iorace(["run", "readbytes", "--variant", "cobol/*"]), "no cell matches --variant cobol/*")


def test_unknown_dataset(iorace):
    assert_one_line_error(iorace(["run", "readbytes", "--size", "huge"]), "no dataset 'huge'")


def test_unknown_param(iorace):
    assert_one_line_error(iorace(["run", "readbytes", "--param", "speed=fast"]), "no such parameter")


def test_missing_input_file(iorace, tmp_path):
    assert_one_line_error(iorace(["run", "readbytes", "--input", str(tmp_path / "nope.bin")]), "no such file")


def test_directory_as_input(iorace, tmp_path):
    assert_one_line_error(iorace(["run", "readbytes", "--input", str(tmp_path)]), "not a regular file")


def test_bad_option(iorace):
    assert_one_line_error(iorace(["run", "readbytes", "--runs", "zero"]), "--runs")


def test_missing_suite_dir(iorace, tmp_path):
    assert_one_line_error(iorace(["run", "readbytes", "--suite-dir", str(tmp_path / "none")]), "not a directory")


# one cell checked on tiny data: were the export checked only after measuring, the test would fail in seconds
CHEAP_RUN = ["run", "broken", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--variant", "good", "--check-only"]


def test_an_export_to_a_missing_folder_is_refused_before_measuring(iorace, tmp_path):
    res = iorace([*CHEAP_RUN, "--export-json", str(tmp_path / "none" / "x.json")], export=False)
    assert_one_line_error(res, "--export-json", "does not exist")
    assert "Building" not in res.stdout and not res.stdout.strip()  # nothing built or measured first


def test_an_export_to_a_folder_is_refused_before_measuring(iorace, tmp_path):
    res = iorace([*CHEAP_RUN, "--export-tsv", str(tmp_path)])
    assert_one_line_error(res, "--export-tsv", "is a folder")
    assert not res.stdout.strip()


def test_report_html_to_a_folder_is_refused(iorace, tmp_path):
    assert_one_line_error(iorace(["report", "--html", str(tmp_path)]), "--html", "is a folder")


def test_show_without_sessions(iorace, tmp_path):
    assert_one_line_error(iorace(["show", "--db", str(tmp_path / "empty.sqlite")]), "no database yet")


def test_show_unknown_session(iorace, tmp_path):
    first = iorace(["run", "broken", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--variant", "good", "--check-only"])
    assert first.returncode == 0, first.stderr
    assert_one_line_error(iorace(["show", "999", "--db", str(tmp_path / "iorace.sqlite")]), "no session 999")


@pytest.mark.parametrize(
    "manifest, needles",
    [
        (
            'name = "bad"\ntitle = "t"\n[datasets.tiny]\n[[variants]]\nname = "x"\nlanguage = "c"\nsources = ["x.c"]\n',
            ["suite.toml", "variant 'c/x': description: Field required"],
        ),
        (  # a misspelt key: the variant by its name, the typo and what it should be, nothing hidden behind a count
            'name = "bad"\ntitle = "t"\n[datasets.tiny]\n[[variants]]\nname = "getc"\nlanguage = "c"\ndescripton = "d"\n'
            'sources = ["x.c"]\n',
            ["variant 'c/getc': unknown key 'descripton' (did you mean 'description'?)"],
        ),
        ('name = "bad"\ntitle = "t"\nmetric = "speed"\n[datasets.tiny]\n', ["metric", "'inner', 'wall' or 'cpu'"]),
        ('name = "bad"\ntitle = "t"\ncolour = "red"\n[datasets.tiny]\n', ["unknown key 'colour'"]),
        (
            'name = "bad"\ntitle = "t"\n[datasets.tiny]\n[[variants]]\nname = "x"\nlanguage = "c"\ndescription = "d"\n'
            'sources = ["missing.c"]\n',
            ["source missing.c does not exist"],
        ),
        ('name = "bad"\ntitle = [\n', ["not valid TOML"]),
        ('name = "other"\ntitle = "t"\n[datasets.tiny]\n', ["the folder is 'bad'"]),
    ],
)
def test_bad_manifest_names_file_and_field(iorace, tmp_path, manifest, needles):
    suite = tmp_path / "suites" / "bad"
    suite.mkdir(parents=True)
    (suite / "suite.toml").write_text(manifest)
    assert_one_line_error(iorace(["run", "bad", "--suite-dir", str(tmp_path / "suites")]), *needles)


def test_list_shows_the_other_suites_and_names_a_broken_one(iorace, tmp_path):
    suite = tmp_path / "suites" / "bad"
    suite.mkdir(parents=True)
    (suite / "suite.toml").write_text('name = "bad"\ntitle = "t"\ncolour = "red"\n[datasets.tiny]\n')
    res = iorace(["list", "--suite-dir", str(tmp_path / "suites")])
    assert res.returncode == 2, res.stderr  # bad input, said after the list, not instead of it
    assert "readbytes - " in res.stdout and "lines - " in res.stdout  # every other suite still listed
    (line,) = res.stderr.strip().splitlines()
    assert line.startswith("iorace: error: suite 'bad' not listed: ") and "unknown key 'colour'" in line
    assert "Traceback" not in res.stderr
