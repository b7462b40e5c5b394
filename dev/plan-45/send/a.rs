//! Issue 45's plan: a stand-alone check of whether this shape of request future is Send (rustc --edition 2024 --crate-type lib --emit=metadata a.rs); not part of any crate.
use std::future::Future;
pub struct Secret(String);
pub struct Transport { base: String }
impl Transport {
    pub async fn fetch(&self, path: &str, token: Option<&Secret>) -> Result<Vec<u8>, ()> {
        let _ = (path, token.map(|t| t.0.len()), self.base.len());
        std::future::ready(()).await;
        Ok(vec![])
    }
    async fn exchange<T>(&self, take: impl AsyncFn(Vec<u8>) -> Result<T, ()>) -> Result<T, ()> {
        let r = vec![1u8];
        std::future::ready(()).await;
        take(r).await
    }
    pub async fn fetch2(&self, path: &str) -> Result<usize, ()> {
        let p = path.to_string();
        self.exchange(async |b| { std::future::ready(()).await; Ok(b.len() + p.len()) }).await
    }
}
pub struct Client { t: Transport, tok: Secret }
impl Client {
    async fn authorised<T>(&self, request: impl AsyncFn(&Secret) -> Result<T, ()>) -> Result<T, ()> {
        let token = Secret(self.tok.0.clone());
        match request(&token).await {
            Err(()) => request(&token).await,
            ok => ok,
        }
    }
    pub async fn get(&self, path: &str) -> Result<Vec<u8>, ()> {
        let t = &self.t;
        self.authorised(async |token| t.fetch(path, Some(token)).await).await
    }
}
fn assert_send<F: Future + Send>(_: F) {}
pub fn check(c: &Client) {
    assert_send(c.get("/x"));
    assert_send(c.t.fetch2("/y"));
}
