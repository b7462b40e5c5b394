//! The aggregate date form, learnt once per process: against the ylem
//! dialect (which answers a bare date 400), a board of 40 IDs fanned out 32
//! at a time, and `aggregate` over several IDs, get one 400 in all.

use crate::common::sandbox::{Sandbox, start};

/// `n` different IDs: the sandbox's tasks (`task:UUID`) and pipelines, then
/// pipeline UUIDs it does not know (the open server answers those as if
/// they never ran, aggregated statistics included).
fn ids(sb: &Sandbox, n: usize) -> Vec<String> {
    let tasks = sb
        .pipelines
        .iter()
        .flat_map(|(_, t)| t.iter().map(|t| format!("task:{t}")));
    let pipelines = sb.pipelines.iter().map(|(p, _)| p.clone());
    let unknown = (0..n).map(|i| format!("00000000-0000-4000-8000-{i:012}"));
    tasks.chain(pipelines).chain(unknown).take(n).collect()
}

/// The `-v` lines of aggregate requests, and how many were answered 400.
fn aggregates(stderr: &str) -> (usize, usize) {
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("GET ") && l.contains("/aggregated-stats/"))
        .collect();
    let refused = lines.iter().filter(|l| l.contains(" 400 ")).count();
    (lines.len(), refused)
}

#[test]
fn a_board_of_40_ids_at_concurrency_32_gets_one_400() {
    let sb = start("ylem");
    let ids = ids(&sb, 40);
    let mut args = vec!["status", "--concurrency", "32", "-v", "-o", "json"];
    args.extend(ids.iter().map(String::as_str));
    let o = sb.run(&args);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let rows: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 40);
    let (asked, refused) = aggregates(&o.stderr);
    assert_eq!(refused, 1, "{}", o.stderr);
    // One bare date refused, then every ID's week asked with a time.
    assert_eq!(asked, 41, "{}", o.stderr);
    let seen = sb.requests();
    let in_log = seen.iter().filter(|l| l.contains("/aggregated-stats/"));
    assert_eq!(in_log.count(), 41, "{seen:?}");
}

#[test]
fn aggregate_over_several_ids_learns_the_form_once() {
    let sb = start("ylem");
    let ids: Vec<String> = sb.pipelines.iter().map(|(p, _)| p.clone()).collect();
    let mut args = vec![
        "aggregate",
        "pipeline",
        "--concurrency",
        "8",
        "-v",
        "-o",
        "json",
    ];
    args.extend(ids.iter().map(String::as_str));
    let o = sb.run(&args);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let (asked, refused) = aggregates(&o.stderr);
    assert_eq!(refused, 1, "{}", o.stderr);
    assert_eq!(asked, ids.len() + 1, "{}", o.stderr);
}
