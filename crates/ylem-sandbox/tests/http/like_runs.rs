//! The ylem dialect's run side mirrors the open-source server: task graphs
//! and their timing, run start answers, task outputs, gateway faults, whole
//! responses, and the sandbox-only ground truth of a run.

use std::collections::BTreeSet;
use std::time::Instant;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use super::*;

/// The index of the first ordinary pipeline with a task of this type.
fn with_type(sb: &Sb, task_type: &str) -> usize {
    sb.run
        .pipelines
        .iter()
        .position(|p| p.tasks.iter().any(|t| t.task_type == task_type))
        .unwrap()
}

fn types_of(sb: &Sb, run: &[Value]) -> Vec<String> {
    let all: Vec<&ylem_sandbox::Task> = sb.run.pipelines.iter().flat_map(|p| &p.tasks).collect();
    run.iter()
        .map(|e| {
            let t = all
                .iter()
                .find(|t| e["task_uuid"] == t.uuid.to_string())
                .unwrap();
            t.task_type.clone()
        })
        .collect()
}

async fn history(sb: &Sb, token: &str, i: usize) -> Vec<(String, Vec<Value>)> {
    let log = sb
        .getj(
            &format!("/v1/stats/pipelines/{}/logs/{}", sb.pipeline(i), wide()),
            token,
        )
        .await;
    runs_of(&oldest_first(&log), "pipeline_run_uuid")
}

/// Server: tasks run in a graph (a condition takes one branch, a for_each
/// repeats its branch per item, a failure skips the rest), so one
/// pipeline's runs differ in size; a query takes far longer than a condition.
#[tokio::test]
async fn pipelines_are_task_graphs() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let token = sb.token().await;
    let cond = history(&sb, &token, with_type(&sb, "condition")).await;
    let branches: BTreeSet<bool> = cond
        .iter()
        .filter(|(_, r)| r.len() >= 4)
        .map(|(_, r)| {
            let t = types_of(&sb, r);
            assert!(
                !(t.contains(&"gpt".into()) && t.contains(&"api_call".into())),
                "one branch"
            );
            t.contains(&"gpt".into())
        })
        .collect();
    assert_eq!(branches.len(), 2, "both branches taken across runs");
    let each = history(&sb, &token, with_type(&sb, "for_each")).await;
    let sizes: BTreeSet<usize> = each.iter().map(|(_, r)| r.len()).collect();
    assert!(sizes.len() >= 3, "for_each run sizes vary: {sizes:?}");
    let middle = history(&sb, &token, with_type(&sb, "merge")).await;
    let mut stopped_early = false;
    for (_, r) in &middle {
        if let Some(i) = r.iter().position(|e| e["is_successful"] == false) {
            assert_eq!(i + 1, r.len(), "nothing runs after a failure");
            stopped_early |= r.len() < 5;
        }
    }
    assert!(stopped_early, "a failing middle task skips the rest");
    let mean = |ty: &str| {
        let d: Vec<u64> = middle
            .iter()
            .chain(&cond)
            .flat_map(|(_, r)| r.iter().zip(types_of(&sb, r)))
            .filter(|(_, t)| t == ty)
            .map(|(e, _)| e["duration"].as_u64().unwrap())
            .collect();
        d.iter().sum::<u64>() / d.len() as u64
    };
    assert!(
        mean("query") > 10 * mean("condition"),
        "durations vary by task type"
    );
    sb.run.shutdown().await;
}

/// Server: started runs execute the same graph live, each entry appearing
/// as its task finishes; `--task-delay` scales the tasks' durations.
#[tokio::test]
async fn started_runs_follow_the_graph_live() {
    let sb = Sb::new(Dialect::Ylem, |o| o.task_delay = Duration::from_millis(20)).await;
    let token = sb.token().await;
    let i = with_type(&sb, "for_each");
    let mut sizes = BTreeSet::new();
    for _ in 0..8 {
        let r = sb
            .post(&format!("/v1/pipelines/{}/runs/", sb.pipeline(i)), &token)
            .await;
        let run = r.json()["pipeline_run_uuid"].as_str().unwrap().to_string();
        let size = truth(&sb, &run).await["tasks"].as_u64().unwrap() as usize;
        let entries = wait_for_run_of(&sb, i, &token, "pipeline_run_uuid", &run, size).await;
        let t = truth(&sb, &run).await;
        assert_eq!(t["finished"], true);
        assert_eq!(
            t["is_successful"],
            entries.iter().all(|e| e["is_successful"] == true)
        );
        sizes.insert(size);
    }
    assert!(sizes.len() > 1, "live run sizes differ: {sizes:?}");
    // Scaled time: a run takes at least its tasks' durations times the scale.
    let sb2 = Sb::new(Dialect::Ylem, |o| o.task_delay = Duration::from_millis(100)).await;
    let token = sb2.token().await;
    let started = Instant::now();
    let r = sb2
        .post(&format!("/v1/pipelines/{}/runs/", sb2.pipeline(0)), &token)
        .await;
    let run = r.json()["pipeline_run_uuid"].as_str().unwrap().to_string();
    let n = sb2.run.pipelines[0].tasks.len();
    let entries = wait_for_run(&sb2, &token, "pipeline_run_uuid", &run, n).await;
    let ms: u64 = entries
        .iter()
        .map(|e| e["duration"].as_u64().unwrap())
        .sum();
    assert!(
        started.elapsed() >= Duration::from_millis(ms / 10),
        "scaled by --task-delay"
    );
    sb.run.shutdown().await;
    sb2.run.shutdown().await;
}

/// Server: run start is 404 for unknown, inactive, template and pipelines
/// without an initial task, 403 for a paused one, with a JSON Content-Type
/// even on an empty body; 201 `{"pipeline_run_uuid"}` otherwise.
#[tokio::test]
async fn run_start_answers() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let token = sb.token().await;
    let id = |label: &str| {
        sb.run
            .specials
            .iter()
            .find(|(l, _)| l == label)
            .unwrap()
            .1
            .uuid
            .to_string()
    };
    let cases = [
        ("0f0e0d0c-0000-4000-8000-000000000000".to_string(), 404),
        (id("inactive"), 404),
        (id("template"), 404),
        (id("no-initial-task"), 404),
        (id("paused"), 403),
    ];
    for (p, status) in cases {
        let r = sb.post(&format!("/v1/pipelines/{p}/runs/"), &token).await;
        assert_eq!((r.status, r.body.as_str()), (status, ""), "{p}");
        assert_eq!(r.ctype.as_deref(), Some("application/json"));
    }
    let r = sb
        .post(&format!("/v1/pipelines/{}/runs/", sb.pipeline(0)), &token)
        .await;
    assert_eq!(r.status, 201);
    sb.run.shutdown().await;
}

/// Server: a failed task's output is the JSON errors array
/// `[{"Code","Severity","Message"}]`; `metric_value` is set only on
/// aggregator tasks of metric pipelines, whose output is then `""`.
#[tokio::test]
async fn task_outputs_and_metrics() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let token = sb.token().await;
    let mut failed_outputs = 0;
    for i in 0..sb.run.pipelines.len() {
        for (_, run) in history(&sb, &token, i).await {
            for (e, ty) in run.iter().zip(types_of(&sb, &run)) {
                let metric = e["metric_value"].as_f64().unwrap();
                if metric != 0.0 {
                    assert!(
                        i == 0 && ty == "aggregator",
                        "metric on {ty} of pipeline {i}"
                    );
                    assert_eq!(e["output"], "");
                }
                let out = e["output"].as_str().unwrap();
                if e["is_successful"] == false {
                    let errors: Value =
                        serde_json::from_slice(&STANDARD.decode(out).unwrap()).unwrap();
                    let first = &errors.as_array().unwrap()[0];
                    assert!(
                        first["Code"].is_number()
                            && first["Severity"].is_string()
                            && first["Message"].is_string()
                    );
                    failed_outputs += 1;
                }
            }
        }
    }
    assert!(failed_outputs > 0);
    sb.run.shutdown().await;
}

/// Server: the gateway answers failed upstreams with 500 and a JSON body on
/// statistics and run start, besides 502-504; and the server builds a whole
/// response before its first byte (so it has a Content-Length).
#[tokio::test]
async fn gateway_faults_and_whole_responses() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let token = sb.token().await;
    let logs = format!(
        "{}/v1/stats/pipelines/{}/logs/{}",
        sb.run.base_url,
        sb.pipeline(0),
        wide()
    );
    let r = sb.http.get(&logs).bearer_auth(&token).send().await.unwrap();
    let length: usize = r.headers()["content-length"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(r.bytes().await.unwrap().len(), length);
    sb.run.shutdown().await;
    let sb = Sb::new(Dialect::Ylem, |o| o.fail_rate = 1.0).await;
    let mut seen = BTreeSet::new();
    for i in 0..40 {
        let r = match i % 2 {
            0 => {
                let path = format!("/v1/stats/pipelines/{}/stats/{}", sb.pipeline(0), wide());
                sb.get(&path, Some("t")).await
            }
            _ => {
                sb.post(&format!("/v1/pipelines/{}/runs/", sb.pipeline(0)), "t")
                    .await
            }
        };
        assert_eq!(r.json()["code"], r.status, "{}", r.body);
        seen.insert(r.status);
    }
    assert!(
        seen.contains(&500) && seen.iter().all(|s| [500, 502, 503, 504].contains(s)),
        "{seen:?}"
    );
    sb.run.shutdown().await;
}

/// Sandbox-only: `GET /_sandbox/runs/<run>` gives a run's real size,
/// outcome, entries and whether it finished, off the API (no token, no
/// faults).
#[tokio::test]
async fn ground_truth_of_runs() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let token = sb.token().await;
    let (run, entries) = history(&sb, &token, 1).await.pop().unwrap();
    let t = truth(&sb, &run).await;
    assert_eq!(t["tasks"], entries.len());
    assert_eq!(t["reported"], entries.len());
    assert_eq!(t["finished"], true);
    assert_eq!(t["pipeline"], sb.pipeline(1));
    assert_eq!(
        t["is_successful"],
        entries.iter().all(|e| e["is_successful"] == true)
    );
    // Its entries in the order they ran, each as the log has it.
    let listed = t["entries"].as_array().unwrap();
    assert_eq!(listed.len(), entries.len());
    for (mine, logged) in listed.iter().zip(entries.iter()) {
        for k in ["task_uuid", "task_type", "is_successful", "duration"] {
            assert_eq!(mine[k], logged[k], "{k}: {mine} vs {logged}");
        }
    }
    let before = sb.run.requests();
    truth(&sb, &run).await;
    let faulty = Sb::new(Dialect::Ylem, |o| o.fail_rate = 1.0).await;
    let r = faulty
        .get("/_sandbox/runs/0f0e0d0c-0000-4000-8000-000000000000", None)
        .await;
    assert_eq!(r.status, 404, "exempt from faults");
    assert_eq!((faulty.run.requests(), sb.run.requests()), (0, before));
    faulty.run.shutdown().await;
    sb.run.shutdown().await;
}
