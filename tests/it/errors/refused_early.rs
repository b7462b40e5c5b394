//! Inputs refused before any request (issue 43): exit 2 means nothing was
//! sent, so a leap second, a year before 1970 or past 9999, a local time
//! in a DST gap, an `--output-file` that cannot be written, a count past
//! its bound and an ID given twice to `run` are all exit 2 with words that
//! say why, and the server saw no request at all (`aggregate` periods past
//! 9999 too).

use crate::common;

use common::faultserver::*;
use common::*;

fn refused(args: &[&str], env: &[(&str, &str)], says: &str) {
    let s = FaultServer::start(|r, _| {
        if r.path.starts_with("/v1/oauth/token") {
            token_response()
        } else {
            Action::Raw(json(200, STATS))
        }
    });
    let base = s.base();
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec![
        ("YLEM_BASE_URL", base.as_str()),
        ("YLEM_CLIENT_ID", CLIENT_ID),
        ("YLEM_CLIENT_SECRET", SECRET),
        ("YLEM_CONFIG_DIR", dir.path().to_str().unwrap()),
    ];
    all.extend_from_slice(env);
    let o = ylem(args, &all);
    assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
    assert!(o.stderr.contains(says), "{args:?}: {}", o.stderr);
    assert!(s.seen().is_empty(), "{args:?}: sent {:?}", s.seen());
}

#[test]
fn times_out_of_range_leap_seconds_and_dst_gaps_are_refused_before_sending() {
    for since in ["2026-06-30 23:59:60", "2016-12-31T23:59:60Z"] {
        refused(
            &["stats", "pipeline", P1, "--since", since],
            &[],
            "leap second",
        );
    }
    for since in [
        "0000-01-01",
        "1969-12-31",
        "1900-01-01T00:00:00Z",
        "1000000d",
    ] {
        refused(
            &["stats", "pipeline", P1, "--since", since],
            &[],
            "times from 1970-01-01 00:00:00 to 9999-12-31 23:59:59 UTC",
        );
    }
    refused(
        &["logs", P1, "--from", "2026-03-29 02:30:00"],
        &[("YLEM_TZ", "Europe/Paris")],
        "DST gap in Europe/Paris",
    );
}

#[test]
fn an_output_file_that_cannot_be_written_is_refused_before_sending() {
    let dir = tempfile::tempdir().unwrap();
    let is_dir = dir.path().to_str().unwrap();
    for path in ["/proc/x.prom", "/nonexistent-dir/x.prom", is_dir] {
        refused(
            &[
                "stats",
                "pipeline",
                P1,
                "-o",
                "prometheus",
                "--output-file",
                path,
            ],
            &[],
            "cannot write --output-file",
        );
    }
    // No probe is left behind in a directory that can be written.
    let ok = dir.path().join("ylem.prom");
    let s = with_token(|_, _| Action::Raw(json(200, STATS)));
    let cfg = tempfile::tempdir().unwrap();
    let o = client_run(
        &s.base(),
        cfg.path(),
        &[
            "stats",
            "pipeline",
            P1,
            "-o",
            "prometheus",
            "--output-file",
            ok.to_str().unwrap(),
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, [std::ffi::OsString::from("ylem.prom")]);
}

#[test]
fn counts_past_their_bounds_are_refused_before_sending() {
    for (args, says) in [
        (
            &[
                "run",
                "pipeline",
                P1,
                "--wait",
                "--expect-tasks",
                "1000000000000",
            ][..],
            "from 1 to 100000",
        ),
        (
            &["run", "pipeline", P1, "--wait", "--expect-tasks", "0"][..],
            "from 1 to 100000",
        ),
        (
            &["stats", "pipeline", P1, "--concurrency", "100000"][..],
            "from 1 to 256",
        ),
        (
            &["stats", "pipeline", P1, "--retries", "4294967296"][..],
            "from 0 to 100",
        ),
        (
            &["runs", P1, "--limit", "99999999999999999999999"][..],
            "from 1 to 1000000",
        ),
    ] {
        refused(args, &[], says);
    }
}

#[test]
fn an_id_given_twice_to_run_starts_nothing() {
    refused(&["run", "pipeline", P1, P1], &[], "is given twice");
    refused(
        &["run", "pipeline", P1, P2, P1, "--wait"],
        &[],
        "is given twice",
    );
    // An ID in another case is the same pipeline.
    let upper = P1.to_uppercase();
    refused(&["run", "pipeline", P1, &upper], &[], "are the same");
}

#[test]
fn aggregate_refuses_periods_past_9999_before_sending() {
    let s = sandbox::start("spec");
    let p = s.pipelines[0].0.as_str();
    let before = s.requests().len();
    let args = [
        "aggregate",
        "pipeline",
        p,
        "--from",
        "9999-12-31",
        "--period",
        "year",
        "--count",
        "2",
    ];
    let o = s.run(&args);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stdout.is_empty(), "{}", o.stdout);
    assert!(o.stderr.contains("9999"), "{}", o.stderr);
    assert!(!o.stderr.contains("+10000"), "{}", o.stderr);
    assert_eq!(s.requests().len(), before, "nothing was sent");
    // The last year there is still fine, in the four-digit form.
    let o = s.run(&[&args[..8], &["1", "-o", "csv"]].concat());
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("9999-01-01T00:00:00Z"), "{}", o.stdout);
}
