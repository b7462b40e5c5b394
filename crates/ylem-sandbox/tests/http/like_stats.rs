//! The ylem dialect's statistics side mirrors the open-source server: one
//! test per behaviour of its log, counting, unknown-UUID answers, aggregated
//! and aggregated rules, each naming the server behaviour it mirrors.

use super::*;

fn at(e: &Value) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(e["executed_at"].as_str().unwrap())
        .unwrap()
        .to_utc()
}

/// Whole seconds, as path date-times are.
fn secs(t: DateTime<Utc>) -> DateTime<Utc> {
    DateTime::from_timestamp(t.timestamp(), 0).unwrap()
}

/// Server: logs are `ORDER BY executed_at DESC` over every row of each run
/// with a row in the window; `executed_at` is RFC 3339 with 0-6 fractional
/// digits.
#[tokio::test]
async fn logs_are_newest_first_whole_runs() {
    // History at the real pace (one second of task time a second), so runs
    // last seconds and a one-second window can cut one.
    let sb = Sb::new(Dialect::Ylem, |o| o.task_delay = Duration::from_secs(1)).await;
    let token = sb.token().await;
    let p = sb.pipeline(3);
    let full = sb
        .getj(&format!("/v1/stats/pipelines/{p}/logs/{}", wide()), &token)
        .await;
    let full = full.as_array().unwrap();
    assert!(
        full.windows(2).all(|w| at(&w[0]) >= at(&w[1])),
        "newest first"
    );
    for e in full {
        let s = e["executed_at"].as_str().unwrap();
        let frac = s.trim_end_matches('Z').split_once('.').map_or("", |x| x.1);
        assert!(s.ends_with('Z') && frac.len() <= 6, "{s}");
    }
    // A one-second window on the last entry of a run that lasted longer
    // returns the whole run, entries outside the window included.
    let runs = runs_of(
        &oldest_first(&Value::from(full.clone())),
        "pipeline_run_uuid",
    );
    let (run, entries) = runs
        .iter()
        .find(|(_, r)| at(&r[r.len() - 1]) - at(&r[0]) > chrono::Duration::seconds(2))
        .expect("a run longer than two seconds");
    let last = secs(at(&entries[entries.len() - 1]));
    let path = format!(
        "/v1/stats/pipelines/{p}/logs/{}/{}",
        fmt(last),
        fmt(last + chrono::Duration::seconds(1))
    );
    let log = sb.getj(&path, &token).await;
    let log = log.as_array().unwrap();
    assert_eq!(log.len(), entries.len());
    assert!(log.iter().all(|e| e["pipeline_run_uuid"] == run.as_str()));
    assert!(
        at(&log[log.len() - 1]) < last,
        "an entry outside the window"
    );
    sb.run.shutdown().await;
}

/// Server: pipeline failures = failed (fatal) task rows, successes = runs -
/// failed rows, average = mean of run totals; range `last_run_*` = the last
/// run at or before `to`, zeros and 0001-01-01 when nothing ran by then.
#[tokio::test]
async fn statistics_are_counted_as_the_server_does() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let token = sb.token().await;
    let p = sb.pipeline(3);
    let full = sb
        .getj(&format!("/v1/stats/pipelines/{p}/logs/{}", wide()), &token)
        .await;
    let runs = runs_of(&oldest_first(&full), "pipeline_run_uuid");
    // A window holding runs 10..60 exactly (runs are hours apart).
    let (first, last) = (&runs[10].1, &runs[59].1);
    let from = secs(at(&first[0]));
    let to = secs(at(&last[last.len() - 1])) + chrono::Duration::seconds(1);
    let inside = &runs[10..60];
    let failed = inside
        .iter()
        .flat_map(|(_, r)| r.iter())
        .filter(|e| e["is_successful"] == false)
        .count();
    let total = |r: &Vec<Value>| -> u64 { r.iter().map(|e| e["duration"].as_u64().unwrap()).sum() };
    let mean = inside.iter().map(|(_, r)| total(r)).sum::<u64>() / 50;
    let s = sb
        .getj(
            &format!("/v1/stats/pipelines/{p}/stats/{}/{}", fmt(from), fmt(to)),
            &token,
        )
        .await;
    assert_eq!(s["num_of_failures"], failed);
    assert_eq!(s["num_of_successes"], 50 - failed as u64);
    assert_eq!(s["average_duration"], mean);
    assert_eq!(s["last_run_duration"], total(last));
    assert_eq!(
        s["is_last_run_successful"],
        last[last.len() - 1]["is_successful"]
    );
    // A window between two runs: no counts, but the run before it is "last".
    let gap_from = to + chrono::Duration::seconds(1);
    let gap_to = secs(at(&runs[60].1[0])) - chrono::Duration::seconds(1);
    let s = sb
        .getj(
            &format!(
                "/v1/stats/pipelines/{p}/stats/{}/{}",
                fmt(gap_from),
                fmt(gap_to)
            ),
            &token,
        )
        .await;
    assert_eq!(
        (
            s["num_of_successes"].as_i64(),
            s["num_of_failures"].as_i64()
        ),
        (Some(0), Some(0))
    );
    let last_at = at(&last[last.len() - 1])
        .format("%Y-%m-%d %H:%M:%S")
        .to_string();
    assert_eq!(s["last_run_executed_at"], last_at);
    assert_eq!(s["last_run_duration"], total(last));
    // Before any run: zeros and the zero time.
    let s = sb
        .getj(
            &format!("/v1/stats/pipelines/{p}/stats/2001-01-01%2000:00:00/2001-02-01%2000:00:00"),
            &token,
        )
        .await;
    assert_eq!(s["last_run_executed_at"], "0001-01-01 00:00:00");
    assert_eq!(
        (
            s["last_run_duration"].as_u64(),
            s["is_last_run_successful"].as_bool()
        ),
        (Some(0), Some(false))
    );
    sb.run.shutdown().await;
}

fn special(sb: &Sb, label: &str) -> String {
    let (_, e) = sb.run.specials.iter().find(|(l, _)| l == label).unwrap();
    e.uuid.to_string()
}

/// Server: the organisation is checked only when a query found rows. An
/// unknown UUID or one of another kind is answered like a never-ran entity
/// (range 200 zeros, aggregated null, logs []), last-run is 403 Forbidden
/// for all of them; another organisation's entity with runs is 403.
#[tokio::test]
async fn unknown_uuids_are_answered_as_never_ran() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let token = sb.token().await;
    let unknown = "0f0e0d0c-0000-4000-8000-000000000000".to_string();
    let task = sb.run.pipelines[0].tasks[0].uuid.to_string();
    let never = special(&sb, "template");
    let forbidden = serde_json::json!({"code":403,"message":"Forbidden"});
    for id in [&unknown, &task, &never] {
        let s = sb
            .getj(
                &format!("/v1/stats/pipelines/{id}/stats/{}", wide()),
                &token,
            )
            .await;
        assert_eq!(s["num_of_successes"], 0, "{id}");
        assert_eq!(s["last_run_executed_at"], "0001-01-01 00:00:00");
        let agg = format!("/v1/stats/pipelines/{id}/aggregated-stats/2026-01-01%2000:00:00/year/1");
        assert_eq!(sb.get(&agg, Some(&token)).await.body, "null");
        let logs = format!("/v1/stats/pipelines/{id}/logs/{}", wide());
        assert_eq!(sb.get(&logs, Some(&token)).await.body, "[]");
        let r = sb
            .get(
                &format!("/v1/stats/pipelines/{id}/last-run/stats"),
                Some(&token),
            )
            .await;
        assert_eq!((r.status, r.json()), (403, forbidden.clone()), "{id}");
    }
    let other = special(&sb, "other-organisation");
    for path in [
        format!("/v1/stats/pipelines/{other}/stats/{}", wide()),
        format!("/v1/stats/pipelines/{other}/last-run/stats"),
    ] {
        let r = sb.get(&path, Some(&token)).await;
        assert_eq!((r.status, r.json()), (403, forbidden.clone()), "{path}");
    }
    sb.run.shutdown().await;
}

/// Server: aggregated takes lowercase v4 UUIDs only (ozzo-validation's
/// message), count 0 gives `null`, the time of day is ignored (`toDate`),
/// and an unaligned day gives a partial first bucket plus one extra, each
/// labelled as a whole calendar period.
#[tokio::test]
async fn aggregated_follows_the_server_rules() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let token = sb.token().await;
    let p = sb.pipeline(0);
    let agg = |id: &str, from: &str, n: &str| {
        format!("/v1/stats/pipelines/{id}/aggregated-stats/{from}/week/{n}")
    };
    for id in [
        p.to_uppercase(),
        "0f0e0d0c-0000-1000-8000-000000000000".into(),
    ] {
        let r = sb
            .get(&agg(&id, "2026-01-01%2000:00:00", "2"), Some(&token))
            .await;
        assert_eq!(r.status, 400);
        assert_eq!(
            r.json()["errors"],
            serde_json::json!(["must be a valid UUID v4"])
        );
    }
    let r = sb
        .get(&agg(&p, "2026-01-01%2000:00:00", "0"), Some(&token))
        .await;
    assert_eq!((r.status, r.body.as_str()), (200, "null"));
    let wed = monday_weeks_ago(6) + chrono::Duration::days(2);
    let sorted = |v: Value| {
        let mut b = v.as_array().unwrap().clone();
        b.sort_by_key(|x| x["date_from"].as_str().unwrap().to_string());
        b
    };
    let midnight = sorted(
        sb.getj(&agg(&p, &format!("{wed}%2000:00:00"), "3"), &token)
            .await,
    );
    let noon = sorted(
        sb.getj(&agg(&p, &format!("{wed}%2013:45:00"), "3"), &token)
            .await,
    );
    assert_eq!(midnight, noon, "time of day ignored");
    assert_eq!(midnight.len(), 4, "a partial first bucket and one extra");
    for b in &midnight {
        let from = chrono::NaiveDateTime::parse_from_str(
            b["date_from"].as_str().unwrap(),
            "%Y-%m-%d %H:%M:%S",
        )
        .unwrap();
        let to = chrono::NaiveDateTime::parse_from_str(
            b["date_to"].as_str().unwrap(),
            "%Y-%m-%d %H:%M:%S",
        )
        .unwrap();
        assert_eq!(from.weekday(), Weekday::Mon);
        assert_eq!(
            to - from,
            chrono::Duration::weeks(1) - chrono::Duration::seconds(1)
        );
    }
    sb.run.shutdown().await;
}

/// Server (Go's `time.Parse` with `2006-01-02 15:04:05`): fractional seconds
/// are accepted in path date-times; a `T` or a `Z` is a 400.
#[tokio::test]
async fn path_times_take_fractions_but_not_t_or_z() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let token = sb.token().await;
    let p = sb.pipeline(0);
    let stats = |from: &str| format!("/v1/stats/pipelines/{p}/stats/{from}/2030-01-01%2000:00:00");
    let ok = sb
        .get(&stats("2026-01-01%2000:00:00.250"), Some(&token))
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    for bad in ["2026-01-01T00:00:00", "2026-01-01%2000:00:00Z"] {
        assert_eq!(sb.get(&stats(bad), Some(&token)).await.status, 400, "{bad}");
    }
    sb.run.shutdown().await;
}
