//! A server killed with SIGKILL while 50 sends are in flight sends at most one of them twice
//! after it starts again: the provider's answers it had read were journaled before anything
//! else. The provider is a stand-in Graph API in the test process, so it outlives the kills and
//! counts every message it accepted. It accepts a send only once the server has journaled its
//! answer to the one before, so that wherever the kill lands at most one answer is unread;
//! and each life of the server's talks to it under its own path, so that nothing a dead life
//! sent is ever accepted.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix_web::{App, HttpResponse, HttpServer, web};
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::both_backends;
use crate::crash::{customer_writes_now, outgoing_messages, start, unstarted_app};

const SENDS: usize = 50;
/// The stand-in's time per send: 80 a second, the Cloud API's throughput per number.
const PROVIDER_PACE: Duration = Duration::from_millis(12);
/// Accepted sends after which the test kills the server.
const KILL_AFTER: usize = 10;
/// What the stand-in accepts at most before the kill, so that sends are always still in flight
/// when it lands, however late the test gets to it.
const FIRST_LIFE_CAP: usize = 40;

/// What the stand-in does with a send.
#[derive(Clone, Copy)]
struct Mode {
    /// The live life of the server's; requests from an earlier one are never accepted: their
    /// sender is dead.
    life: u32,
    /// Accepts up to this many messages in all, holding the sends beyond; 0 refuses every send
    /// as rate-limited (retried by the outbox).
    up_to: usize,
}

/// A Graph API that accepts one send per `PROVIDER_PACE` and keeps the text of each.
#[derive(Clone)]
struct Graph {
    mode: Arc<watch::Sender<Mode>>,
    accepted: Arc<Mutex<Vec<String>>>,
    /// The life and provider id of the last accepted send.
    last: Arc<Mutex<Option<(u32, String)>>>,
    turn: Arc<tokio::sync::Mutex<()>>,
    /// The server's journals of the answers it read.
    journals: PathBuf,
}

impl Graph {
    fn accepted(&self) -> Vec<String> {
        self.accepted.lock().expect("accepted").clone()
    }

    /// Starts a new life of the server's with this cap (0: refuse); answers the count so far.
    /// Under the lock that accepting takes, so nothing is accepted after it returns.
    fn next_life(&self, up_to: usize) -> usize {
        let accepted = self.accepted.lock().expect("accepted");
        self.mode.send_modify(|mode| {
            mode.life += 1;
            mode.up_to = up_to;
        });
        accepted.len()
    }

    /// This life's base URL for the server.
    fn url(&self, base: &str) -> String {
        format!("{base}/life-{}", self.mode.borrow().life)
    }

    /// Waits until the server has journaled its answer to the last send this life accepted, or
    /// until the life is over.
    async fn last_answer_read(&self, life: u32) {
        let last = self.last.lock().expect("last").clone();
        let Some((_, id)) = last.filter(|(of, _)| *of == life) else {
            return;
        };
        while self.mode.borrow().life == life && !journaled(&self.journals, &id) {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }
}

/// Whether a journal in the folder holds this provider id.
fn journaled(journals: &Path, id: &str) -> bool {
    let quoted = format!("\"{id}\"");
    std::fs::read_dir(journals).is_ok_and(|files| {
        files.filter_map(Result::ok).any(|file| {
            std::fs::read_to_string(file.path()).is_ok_and(|text| text.contains(&quoted))
        })
    })
}

/// `POST /life-{n}/{version}/{phone-number-id}/messages`.
async fn accept(
    graph: web::Data<Graph>,
    path: web::Path<(String, String, String)>,
    body: web::Json<Value>,
) -> HttpResponse {
    let refused = HttpResponse::TooManyRequests()
        .json(json!({"error": {"code": 130429, "message": "Rate limit hit"}}));
    let Some(Ok(life)) = path.0.strip_prefix("life-").map(str::parse::<u32>) else {
        return HttpResponse::NotFound().finish();
    };
    let mut mode = graph.mode.subscribe();
    let text = body["text"]["body"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    // One send at a time, each taking the provider a while; then accepted and answered at once.
    let _turn = graph.turn.lock().await;
    tokio::time::sleep(PROVIDER_PACE).await;
    graph.last_answer_read(life).await;
    loop {
        {
            let current = *mode.borrow_and_update();
            if current.life != life || current.up_to == 0 {
                return refused;
            }
            let mut accepted = graph.accepted.lock().expect("accepted");
            if accepted.len() < current.up_to {
                accepted.push(text);
                let id = format!("wamid.fake-{}", accepted.len());
                *graph.last.lock().expect("last") = Some((life, id.clone()));
                return HttpResponse::Ok().json(json!({"messaging_product": "whatsapp",
                    "contacts": [{"input": body["to"]}], "messages": [{"id": id}]}));
            }
        }
        if mode.changed().await.is_err() {
            return refused;
        }
    }
}

/// Starts the stand-in (refusing, until told otherwise) for a server with this data dir;
/// answers its base URL.
fn graph_api(data_dir: &Path) -> (String, Graph) {
    let graph = Graph {
        mode: Arc::new(watch::channel(Mode { life: 0, up_to: 0 }).0),
        accepted: Arc::default(),
        last: Arc::default(),
        turn: Arc::default(),
        journals: data_dir.join("send-answers"),
    };
    let data = web::Data::new(graph.clone());
    let server = HttpServer::new(move || {
        App::new().app_data(data.clone()).route(
            "/{life}/{version}/{number}/messages",
            web::post().to(accept),
        )
    })
    .workers(1)
    .bind("127.0.0.1:0")
    .expect("graph api binds");
    let port = server.addrs()[0].port();
    actix_web::rt::spawn(server.run());
    (format!("http://127.0.0.1:{port}"), graph)
}

both_backends!(
    a_kill_with_fifty_sends_in_flight_sends_at_most_one_twice,
    |backend| async move {
        let mut app = unstarted_app(backend).await;
        let (graph, provider) = graph_api(app.data_dir.path());
        // First life: the provider refuses for now, so all 50 wait in the outbox.
        let server = start(&mut app, &provider.url(&graph), &[]).await;
        let biz = app.business("inflight").await;
        let customer = "4930123456700";
        customer_writes_now(&app, &biz, customer).await;
        let sends = (0..SENDS).map(|i| {
            let (app, token) = (&app, &biz.session.access);
            async move {
                let (status, body) = app
                    .send_text(token, customer, &format!("f-{i}"), &format!("flight {i}"))
                    .await;
                assert_eq!(status, 202, "{body}");
            }
        });
        futures_util::future::join_all(sends).await;
        drop(server);

        // Second life: the outbox takes all 50 at once; killed once some are answered.
        provider.next_life(FIRST_LIFE_CAP);
        let mut server = start(&mut app, &provider.url(&graph), &[]).await;
        let deadline = Instant::now() + Duration::from_secs(60);
        while provider.accepted().len() < KILL_AFTER {
            assert!(Instant::now() < deadline, "the outbox did not send");
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let before_kill = provider.next_life(0);
        server.0.kill().expect("SIGKILL");
        server.0.wait().expect("reaped");
        drop(server);

        // Third life: everything is accepted; the outbox drains.
        provider.next_life(usize::MAX);
        let _server = start(&mut app, &provider.url(&graph), &[]).await;
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            let outgoing = outgoing_messages(&app, &biz, customer).await;
            assert_eq!(outgoing.len(), SENDS);
            let sent = outgoing.iter().filter(|m| {
                m["message_id"]
                    .as_str()
                    .is_some_and(|id| id.starts_with("wamid.fake-"))
            });
            if sent.count() == SENDS {
                break;
            }
            assert!(Instant::now() < deadline, "the outbox did not drain");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let accepted = provider.accepted();
        let mut per_text: HashMap<&str, usize> = HashMap::new();
        for text in &accepted {
            *per_text.entry(text.as_str()).or_default() += 1;
        }
        assert_eq!(per_text.len(), SENDS, "every message reached the provider");
        let twice = accepted.len() - SENDS;
        eprintln!(
            "killed after {before_kill} accepted sends; {twice} sent twice ({} in all)",
            accepted.len()
        );
        assert!(twice <= 1, "{twice} sent twice: {per_text:?}");
        // The journals of the two dead lives were taken up and removed; the live one's stays.
        let journals = std::fs::read_dir(app.data_dir.path().join("send-answers"))
            .expect("the journals' folder")
            .count();
        assert_eq!(journals, 1);
    }
);
