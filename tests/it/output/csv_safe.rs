//! CSV safe to open in a spreadsheet (issue 43, OWASP's CSV injection): by
//! default a text cell starting with `=`, `+`, `-`, `@`, tab or CR gets a
//! `'` in front and control characters are escaped as in tables (a line
//! break stays, quoted); numbers
//! are never changed; `--csv-raw` keeps every cell as sent. Read back with
//! the `csv` crate.

use crate::common;

use common::faultserver::*;
use common::*;

const TYPES: [&str; 8] = [
    "=HYPERLINK(\\\"http://127.0.0.1/x\\\",\\\"click\\\")",
    "+1+1",
    "-2+3",
    "@SUM(A1)",
    "\\tlead-tab",
    "\\u001b[2Jcleared",
    "plain, with a comma",
    "two\\nlines",
];

fn log() -> String {
    let rows: Vec<String> = TYPES
        .iter()
        .enumerate()
        .map(|(i, t)| {
            format!(
                r#"{{"workflow_run_uuid":"9d1c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a","task_uuid":"1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c{i:02x}","task_type":"{t}","is_successful":true,"duration":{i},"output":"eyJvayI6dHJ1ZX0=","metric_value":-1.5,"executed_at":"2024-01-13T18:36:58.123Z"}}"#
            )
        })
        .collect();
    format!("[{}]", rows.join(","))
}

fn column(csv: &str, name: &str) -> Vec<String> {
    let mut r = ::csv::Reader::from_reader(csv.as_bytes());
    let at = r.headers().unwrap().iter().position(|h| h == name).unwrap();
    r.records()
        .map(|rec| rec.unwrap()[at].to_string())
        .collect()
}

#[test]
fn csv_cells_that_a_spreadsheet_would_run_are_defused_unless_raw() {
    let body = log();
    let s = with_token(move |_, _| Action::Raw(json(200, &body)));
    let dir = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        let mut a = vec![
            "logs",
            P1,
            "--from",
            "2024-01-13T00:00:00",
            "--to",
            "2024-01-14T00:00:00",
            "-o",
            "csv",
            "--fields",
            "task_type,duration,metric_value",
        ];
        a.extend_from_slice(extra);
        let o = client_run(&s.base(), dir.path(), &a);
        assert_eq!(o.code, 0, "{extra:?}: {}", o.stderr);
        o.stdout
    };
    let safe = run(&[]);
    assert_eq!(
        column(&safe, "task_type"),
        [
            "'=HYPERLINK(\"http://127.0.0.1/x\",\"click\")",
            "'+1+1",
            "'-2+3",
            "'@SUM(A1)",
            "'\\tlead-tab",
            "\\u{1b}[2Jcleared",
            "plain, with a comma",
            "two\nlines",
        ]
    );
    assert!(!safe.contains('\u{1b}') && !safe.contains('\t'), "{safe:?}");
    // Numbers stay numbers, negative ones too.
    assert!(
        column(&safe, "metric_value").iter().all(|v| v == "-1.5"),
        "{safe}"
    );
    let raw = run(&["--csv-raw"]);
    assert_eq!(
        column(&raw, "task_type"),
        [
            "=HYPERLINK(\"http://127.0.0.1/x\",\"click\")",
            "+1+1",
            "-2+3",
            "@SUM(A1)",
            "\tlead-tab",
            "\u{1b}[2Jcleared",
            "plain, with a comma",
            "two\nlines",
        ]
    );
}
