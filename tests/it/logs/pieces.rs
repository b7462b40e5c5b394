//! A log body that arrives in pieces of 1 byte, in pieces of 1 MiB, or
//! whole gives the same output, byte for byte, in every format and with
//! `--decode` and `--decrypt-key-file`: where the network cuts the body
//! (and so where the receiving thread hands it to the decoding one)
//! changes nothing.

use crate::common;

use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use common::faultserver::*;
use common::*;

const FROM: &str = "2024-01-13 00:00:00";
const TO: &str = "2024-01-14 00:00:00";

/// The key of the sealed outputs, as `--decrypt-key-file` reads it.
const KEY: [u8; 32] = [0xab; 32];

/// `text` sealed with AES-256-GCM as the spec has it: nonce first.
fn sealed(text: &str, i: usize) -> Vec<u8> {
    let c = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, &KEY).unwrap());
    let nonce = [i as u8; 12];
    let mut sealed = text.as_bytes().to_vec();
    c.seal_in_place_append_tag(
        Nonce::assume_unique_for_key(nonce),
        Aad::empty(),
        &mut sealed,
    )
    .unwrap();
    let mut out = nonce.to_vec();
    out.extend(sealed);
    out
}

/// `n` entries of about 400 bytes. Outputs are Base64 of JSON rows
/// (compact, or spaced so that they are rewritten), of text, of the rows
/// sealed with AES-256-GCM, or `null`; some text has escapes and
/// non-ASCII.
fn body(n: usize) -> String {
    let entries: Vec<String> = (0..n)
        .map(|i| {
            let rows = format!(
                r#"[{{"id":{i},"name":"n{i} é","value":{}.25,"ok":{}}}]"#,
                i % 1000,
                i % 2 == 0
            );
            let output = match i % 5 {
                0 => format!("\"{}\"", STANDARD.encode(&rows)),
                1 => format!("\"{}\"", STANDARD.encode(rows.replace(',', ", "))),
                2 => format!("\"{}\"", STANDARD.encode(format!("line {i}, \"quoted\""))),
                3 => format!("\"{}\"", STANDARD.encode(sealed(&rows, i))),
                _ => "null".into(),
            };
            let task_type = if i % 7 == 0 { r#"qu\"ery\u00e9 😀"# } else { "query" };
            format!(
                r#"{{"workflow_run_uuid":"00000000-0000-4000-8000-{i:012x}","task_uuid":"11111111-2222-4333-8444-{:012x}","task_type":"{task_type}","is_successful":{},"duration":{},"output":{output},"metric_value":{},"executed_at":"2024-01-13T10:{:02}:{:02}Z"}}"#,
                i % 5,
                i % 3 != 0,
                i * 37,
                if i % 4 == 0 { "2.5".to_string() } else { i.to_string() },
                i / 60 % 60,
                i % 60
            )
        })
        .collect();
    format!("[{}]\n", entries.join(",\n"))
}

/// A response carrying `body` in chunks of `piece` bytes (chunked transfer
/// encoding, so that each chunk reaches the decoder as one piece).
fn in_pieces(body: &str, piece: usize) -> Vec<u8> {
    let mut out = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n".to_vec();
    for c in body.as_bytes().chunks(piece) {
        out.extend_from_slice(format!("{:x}\r\n", c.len()).as_bytes());
        out.extend_from_slice(c);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

fn logs(response: Vec<u8>, args: &[&str]) -> Out {
    let s = FaultServer::start(move |_, _| Action::Raw(response.clone()));
    let env = token_env(&s.base());
    let mut all = vec!["logs", P1, "--from", FROM, "--to", TO];
    all.extend_from_slice(args);
    let o = run_env(&all, &env);
    assert_eq!(s.seen().len(), 1, "one request");
    o
}

#[test]
fn a_body_in_pieces_of_1_byte_or_1_mib_gives_the_same_output_in_every_format() {
    // Two pieces of 1 MiB; a piece per byte of a smaller log, so that a
    // debug build gets through it in seconds (each piece is a chunk of the
    // response and a message between the threads).
    let big = body(4000);
    assert!(big.len() > 1 << 20, "more than one piece of 1 MiB");
    let small = body(300);
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, KEY).unwrap();
    let key = key.to_str().unwrap().to_string();
    let formats: [&[&str]; 7] = [
        &["-o", "csv"],
        &["-o", "jsonl"],
        &["-o", "json"],
        &["-o", "table"],
        &["-o", "jsonl", "--decode"],
        &["-o", "csv", "--decode"],
        &["-o", "jsonl", "--decrypt-key-file", &key],
    ];
    for args in formats {
        for (body, piece, last) in [(&big, 1 << 20, "f9f"), (&small, 1, "12b")] {
            let whole = logs(json(200, body), args);
            assert_eq!(whole.code, 0, "{args:?}: {}", whole.stderr);
            let last = format!("00000000-0000-4000-8000-000000000{last}");
            assert!(whole.stdout.contains(&last), "{args:?}: the last entry");
            let o = logs(in_pieces(body, piece), args);
            assert_eq!(o.code, 0, "{args:?} in pieces of {piece}: {}", o.stderr);
            // Not assert_eq: a diff of megabytes helps nobody.
            assert!(
                o.stdout == whole.stdout,
                "{args:?} in pieces of {piece} differs from the whole body's"
            );
        }
    }
}
