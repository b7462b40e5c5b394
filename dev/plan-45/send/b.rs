//! Issue 45's plan: a stand-alone check of whether this shape of request future is Send (rustc --edition 2024 --crate-type lib --emit=metadata b.rs); not part of any crate.
use std::future::Future;
#[derive(Clone)]
pub struct Secret(String);
pub struct Transport { base: String }
pub enum Take { Whole, First }
pub enum Taken { Whole(Vec<u8>), First(Vec<u8>, Option<u8>) }
impl Transport {
    pub async fn fetch(&self, path: &str, token: Option<&Secret>) -> Result<Vec<u8>, ()> {
        let _ = (path, token.map(|t| t.0.len()), self.base.len());
        match self.exchange(path, Take::Whole).await? { Taken::Whole(b) => Ok(b), Taken::First(b, _) => Ok(b) }
    }
    async fn exchange(&self, path: &str, take: Take) -> Result<Taken, ()> {
        let r = vec![path.len() as u8];
        loop {
            std::future::ready(()).await;
            return Ok(match take { Take::Whole => Taken::Whole(r), Take::First => { let f = r.first().copied(); Taken::First(r, f) } });
        }
    }
}
pub struct Client { t: Transport, tok: Secret }
impl Client {
    // Variant A: the token by value, a plain Fn returning a Send future.
    async fn authorised<T, F, Fut>(&self, request: F) -> Result<T, ()>
    where F: Fn(Secret) -> Fut, Fut: Future<Output = Result<T, ()>> {
        let token = self.tok.clone();
        match request(token.clone()).await {
            Err(()) => request(token).await,
            ok => ok,
        }
    }
    pub async fn get(&self, path: &str) -> Result<Vec<u8>, ()> {
        let t = &self.t;
        self.authorised(|token| async move { t.fetch(path, Some(&token)).await }).await
    }
}
fn assert_send<F: Future + Send>(_: F) {}
pub fn check(c: &Client) {
    assert_send(c.get("/x"));
    assert_send(c.t.fetch("/y", None));
}
