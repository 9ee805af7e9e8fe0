//! Accepting connections: at most `max_connections` open at once (one more is answered `503`
//! and closed), each served as HTTP/1.1, with upgrades, under the header and idle timeouts.
//!
//! Not `axum::serve`: it gives hyper no timer, so hyper's header timeout never runs, and it
//! has neither a connection cap nor an idle timeout. hyper's own HTTP/1 builder has the header
//! timeout; `tokio-io-timeout` (small, by the author of rust-postgres, long used under tonic)
//! fails a read or write that waits too long, and since an upgraded connection keeps the
//! wrapped stream, that closes silent WebSockets too. HTTP/2 is not served: browsers speak it
//! only over TLS, which a reverse proxy in front would end.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_io_timeout::TimeoutStream;
use tower::ServiceExt;
use tracing::{debug, warn};

use crate::limits::Limits;
use crate::wire::ErrorBody;

/// Answers every connection `listener` accepts with `router`, forever.
pub async fn serve(listener: TcpListener, router: Router, limits: Limits) {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            // The connection was given up before it was accepted: nothing to do.
            Err(e) if matches!(e.kind(), io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset) => continue,
            Err(e) => {
                // Most likely out of file descriptors: accepting again at once would spin.
                warn!("cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(250)).await;
                continue;
            }
        };
        match slots.clone().try_acquire_owned() {
            Ok(slot) => {
                tokio::spawn(serve_connection(Counted { _slot: slot, stream }, peer, router.clone(), limits.clone()));
            }
            Err(_) => refuse(stream),
        }
    }
}

/// Tells a connection over the cap that the server is busy, and closes it. The answer goes
/// into the socket's empty send buffer, so writing it cannot wait on the client.
fn refuse(stream: TcpStream) {
    let body = serde_json::to_string(&ErrorBody { error: "the server has too many connections: try again later".into() })
        .expect("an error body is JSON");
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 5\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(answer.as_bytes());
}

async fn serve_connection(stream: Counted, peer: SocketAddr, router: Router, limits: Limits) {
    let mut stream = TimeoutStream::new(stream);
    stream.set_read_timeout(Some(limits.idle_timeout));
    stream.set_write_timeout(Some(limits.idle_timeout));
    let service = router.map_request(move |mut request: Request<Incoming>| {
        // Where `ClientAddress` finds the peer.
        request.extensions_mut().insert(ConnectInfo(peer));
        request.map(Body::new)
    });
    let served = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .serve_connection(TokioIo::new(Box::pin(stream)), TowerToHyperService::new(service))
        .with_upgrades()
        .await;
    if let Err(e) = served {
        debug!("connection from {peer}: {e}");
    }
}

/// A connection holding one of the server's slots until it is dropped: after its last answer,
/// or when its WebSocket ends (an upgraded connection keeps this stream).
struct Counted {
    _slot: OwnedSemaphorePermit,
    stream: TcpStream,
}

impl AsyncRead for Counted {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(self: Pin<&mut Self>, cx: &mut Context<'_>, bufs: &[io::IoSlice<'_>]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}
