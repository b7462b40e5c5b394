//! Logs, range, aggregated and last-run statistics in the spec dialect.

use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use super::*;

#[tokio::test]
async fn spec_log_fields_and_decryptable_output() {
    let sb = Sb::new(Dialect::Spec, |_| {}).await;
    let token = sb.token().await;
    let log = sb
        .getj(
            &format!("/v1/stats/pipelines/{}/logs/{}", sb.pipeline(2), wide()),
            &token,
        )
        .await;
    let log = log.as_array().unwrap();
    assert!(log.len() > 100);
    let key: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&sb.run.key_hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let cipher = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, &key).unwrap());
    let mut decrypted = 0;
    for e in log {
        assert!(is_uuid(&e["workflow_run_uuid"]) && is_uuid(&e["task_uuid"]));
        assert!(e["task_type"].is_string() && e["is_successful"].is_boolean());
        assert!(e["duration"].is_u64() && e["metric_value"].is_i64());
        let at = e["executed_at"].as_str().unwrap();
        assert!(
            chrono::NaiveDateTime::parse_from_str(at, "%Y-%m-%dT%H:%M:%SZ").is_ok(),
            "{at}"
        );
        let out = e["output"].as_str().unwrap();
        if !out.is_empty() {
            let mut raw = STANDARD.decode(out).unwrap();
            let nonce = Nonce::try_assume_unique_for_key(&raw[..12]).unwrap();
            let plain = cipher
                .open_in_place(nonce, Aad::empty(), &mut raw[12..])
                .unwrap();
            serde_json::from_slice::<Value>(plain).unwrap();
            decrypted += 1;
        }
    }
    assert!(decrypted > 0);
    assert!(
        log.windows(2)
            .all(|w| w[0]["executed_at"].as_str() >= w[1]["executed_at"].as_str()),
        "newest first, as the server orders its log"
    );
    let old = format!(
        "/v1/stats/pipelines/{}/logs/2001-01-01%2000:00:00/2001-02-01%2000:00:00",
        sb.pipeline(2)
    );
    assert_eq!(sb.get(&old, Some(&token)).await.body, "[]");
    sb.run.shutdown().await;
}

#[tokio::test]
async fn spec_range_stats_match_the_log() {
    let sb = Sb::new(Dialect::Spec, |_| {}).await;
    let token = sb.token().await;
    let p = sb.pipeline(2);
    let full = sb
        .getj(&format!("/v1/stats/pipelines/{p}/logs/{}", wide()), &token)
        .await;
    let runs = runs_of(&oldest_first(&full), "workflow_run_uuid");
    // Window edges sit on run starts, so no run is cut in two.
    let start = |i: usize| {
        DateTime::parse_from_rfc3339(runs[i].1[0]["executed_at"].as_str().unwrap())
            .unwrap()
            .to_utc()
    };
    let (from, to) = (
        fmt(start(10)),
        fmt(start(60) - chrono::Duration::seconds(1)),
    );
    let log = sb
        .getj(&format!("/v1/stats/pipelines/{p}/logs/{from}/{to}"), &token)
        .await;
    let window = runs_of(&oldest_first(&log), "workflow_run_uuid");
    assert_eq!(window.len(), 50);
    let ok = |r: &Vec<Value>| r.iter().all(|e| e["is_successful"] == true);
    let dur = |r: &Vec<Value>| {
        r.iter()
            .map(|e| e["duration"].as_u64().unwrap())
            .sum::<u64>()
    };
    let successes = window.iter().filter(|(_, r)| ok(r)).count();
    let total: u64 = window.iter().map(|(_, r)| dur(r)).sum();
    let s = sb
        .getj(
            &format!("/v1/stats/pipelines/{p}/stats/{from}/{to}"),
            &token,
        )
        .await;
    assert_eq!(s["num_of_successes"], successes);
    assert_eq!(s["num_of_failures"], 50 - successes);
    assert_eq!(s["average_duration"], total / 50);
    let last = &window[49].1;
    assert_eq!(s["is_last_run_successful"], ok(last));
    assert_eq!(s["last_run_duration"], dur(last));
    let last_at = last[0]["executed_at"]
        .as_str()
        .unwrap()
        .replace('T', " ")
        .replace('Z', "");
    assert_eq!(s["last_run_executed_at"], last_at);
    sb.run.shutdown().await;
}

#[tokio::test]
async fn spec_task_and_empty_range_stats() {
    let sb = Sb::new(Dialect::Spec, |_| {}).await;
    let token = sb.token().await;
    let (from, to) = (
        fmt(Utc::now() - chrono::Duration::days(30)),
        fmt(Utc::now()),
    );
    let p = sb.pipeline(2);
    let log = sb
        .getj(&format!("/v1/stats/pipelines/{p}/logs/{from}/{to}"), &token)
        .await;
    let t = &sb.run.pipelines[2].tasks[0].uuid;
    let ts = sb
        .getj(&format!("/v1/stats/tasks/{t}/stats/{from}/{to}"), &token)
        .await;
    let task_runs = log
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["task_uuid"] == t.to_string())
        .count();
    assert_eq!(
        ts["num_of_successes"].as_u64().unwrap() + ts["num_of_failures"].as_u64().unwrap(),
        task_runs as u64
    );
    let empty = sb
        .getj(
            &format!(
                "/v1/stats/workflows/{}/stats/2001-01-01%2000:00:00/2001-01-02%2000:00:00",
                sb.run.workflows[0].uuid
            ),
            &token,
        )
        .await;
    assert_eq!(empty["last_run_executed_at"], "0001-01-01 00:00:00");
    assert_eq!(
        (
            empty["num_of_successes"].as_u64(),
            empty["average_duration"].as_u64()
        ),
        (Some(0), Some(0))
    );
    sb.run.shutdown().await;
}

#[tokio::test]
async fn spec_aggregated_buckets_and_last_run() {
    let sb = Sb::new(Dialect::Spec, |_| {}).await;
    let token = sb.token().await;
    let p = sb.pipeline(2);
    let r = sb
        .getj(
            &format!(
                "/v1/stats/pipelines/{p}/aggregated-stats/{}/week/4",
                monday_weeks_ago(8)
            ),
            &token,
        )
        .await;
    let starts = bucket_starts(&r);
    assert_eq!(starts.len(), 4);
    assert!(starts.iter().all(|s| s.weekday() == Weekday::Mon) && starts.is_sorted());
    let first = &r[0];
    let to = starts[0] + chrono::Duration::weeks(1) - chrono::Duration::seconds(1);
    assert_eq!(first["date_to"], to.format("%Y-%m-%d %H:%M:%S").to_string());
    let month = (Utc::now() - chrono::Duration::days(62))
        .date_naive()
        .with_day(1)
        .unwrap();
    let r = sb
        .getj(
            &format!(
                "/v1/stats/tasks/{}/aggregated-stats/{month}%2000:00:00/month/2",
                sb.run.pipelines[2].tasks[0].uuid
            ),
            &token,
        )
        .await;
    let starts = bucket_starts(&r);
    assert_eq!(starts.len(), 2);
    assert!(starts.iter().all(|s| s.day() == 1));
    let none = sb
        .get(
            &format!("/v1/stats/pipelines/{p}/aggregated-stats/2001-01-01/year/2"),
            Some(&token),
        )
        .await;
    assert_eq!((none.status, none.body.as_str()), (200, "[]"));
    sb.run.shutdown().await;
}

#[tokio::test]
async fn spec_last_run_fields_and_never_ran() {
    let sb = Sb::new(Dialect::Spec, |_| {}).await;
    let token = sb.token().await;
    let last = sb
        .getj(
            &format!(
                "/v1/stats/workflows/{}/last-run/stats",
                sb.run.workflows[1].uuid
            ),
            &token,
        )
        .await;
    assert!(last["is_successful"].is_boolean() && last["duration"].is_u64());
    assert_stats_time(&last["executed_at"]);
    let never = sb
        .get(
            "/v1/stats/tasks/0f0e0d0c-0000-4000-8000-000000000000/last-run/stats",
            Some(&token),
        )
        .await;
    assert_eq!(never.status, 404);
    assert_eq!(
        (
            never.json()["code"].as_u64(),
            never.json()["errors"].as_array().map(Vec::len)
        ),
        (Some(404), Some(1))
    );
    sb.run.shutdown().await;
}
