//! `aggregate --chart` against the sandbox: it fits 60 and 120 columns,
//! coloured only when asked and never in a pipe or under `NO_COLOR`, and
//! is refused with `-o json`.

use crate::common::sandbox::start;

#[test]
fn chart_fits_two_widths_with_and_without_colour() {
    let sb = start("spec");
    let p0 = &sb.pipelines[0].0;
    for width in ["60", "120"] {
        let o = sb.run_with(
            &[
                "aggregate",
                "pipeline",
                p0,
                "--chart",
                "--period",
                "week",
                "--count",
                "6",
            ],
            &[("COLUMNS", width)],
        );
        assert_eq!(o.code, 0, "{}", o.stderr);
        let w: usize = width.parse().unwrap();
        let lines: Vec<&str> = o.stdout.lines().collect();
        assert_eq!(lines.len(), 7, "a legend and six weeks:\n{}", o.stdout);
        for l in &lines[1..] {
            assert!(l.chars().count() <= w, "wider than {w}: {l}");
            assert!(
                l.contains('#') && l.contains(" ok ") && l.contains(" avg "),
                "{l}"
            );
        }
        assert!(!o.stdout.contains('\x1b'), "no colour in a pipe");
    }
    let o = sb.run(&["aggregate", "pipeline", p0, "--chart", "--color", "always"]);
    assert!(o.stdout.contains("\x1b[32m"), "colour when asked");
    let o = sb.run_with(
        &["aggregate", "pipeline", p0, "--chart"],
        &[("NO_COLOR", "1")],
    );
    assert!(!o.stdout.contains('\x1b'));
    assert_eq!(
        sb.run(&["aggregate", "pipeline", p0, "--chart", "-o", "json"])
            .code,
        2
    );
}
