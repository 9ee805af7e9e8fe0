//! The client's address, whose budgets a request spends: the TCP peer, or, behind a trusted
//! reverse proxy, the last hop of `X-Forwarded-For`.

use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

use crate::app::{error_response, AppState};

/// The address a client's requests are counted under. An IPv6 client counts by its /64
/// network: one host is usually given a whole /64, and could otherwise take a fresh address
/// for every request.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ClientAddress(pub IpAddr);

impl ClientAddress {
    pub fn new(address: IpAddr) -> ClientAddress {
        match address.to_canonical() {
            IpAddr::V6(v6) => {
                let network = u128::from(v6) & !(u128::MAX >> 64);
                ClientAddress(IpAddr::V6(Ipv6Addr::from(network)))
            }
            v4 => ClientAddress(v4),
        }
    }
}

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<ClientAddress, Response> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(peer)| peer.ip());
        let forwarded = if app.limits.trust_proxy { last_forwarded_hop(&parts.headers) } else { None };
        match forwarded.or(peer) {
            Some(address) => Ok(ClientAddress::new(address)),
            // Every connection the server accepts carries its peer (serve.rs).
            None => Err(error_response(StatusCode::INTERNAL_SERVER_ERROR, "the client's address is unknown")),
        }
    }
}

/// The address the nearest proxy saw: the last entry of the last `X-Forwarded-For` header.
/// The entries before it were written by whoever sent the request and prove nothing.
fn last_forwarded_hop(headers: &HeaderMap) -> Option<IpAddr> {
    let header = headers.get_all("x-forwarded-for").iter().next_back()?.to_str().ok()?;
    let hop = header.rsplit(',').next()?.trim();
    hop.parse::<IpAddr>().ok().or_else(|| hop.parse::<SocketAddr>().ok().map(|a| a.ip()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_hop_counts() {
        let mut headers = HeaderMap::new();
        assert_eq!(last_forwarded_hop(&headers), None);
        headers.append("x-forwarded-for", "6.6.6.6, 10.0.0.1".parse().unwrap());
        headers.append("x-forwarded-for", "6.6.6.6,  203.0.113.7".parse().unwrap());
        assert_eq!(last_forwarded_hop(&headers), Some("203.0.113.7".parse().unwrap()));
        headers.append("x-forwarded-for", "[2001:db8::1]:4711".parse().unwrap());
        assert_eq!(last_forwarded_hop(&headers), Some("2001:db8::1".parse().unwrap()));
        headers.append("x-forwarded-for", "unknown".parse().unwrap());
        assert_eq!(last_forwarded_hop(&headers), None);
    }

    #[test]
    fn an_ipv6_client_counts_by_its_network() {
        let a = ClientAddress::new("2001:db8:1:2:aaaa::1".parse().unwrap());
        let b = ClientAddress::new("2001:db8:1:2:bbbb::2".parse().unwrap());
        assert_eq!(a, b);
        assert_ne!(a, ClientAddress::new("2001:db8:1:3::1".parse().unwrap()));
        assert_eq!(ClientAddress::new("::ffff:192.0.2.1".parse().unwrap()).0, "192.0.2.1".parse::<IpAddr>().unwrap());
    }
}
