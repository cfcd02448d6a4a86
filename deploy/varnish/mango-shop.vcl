# Mango Shop behind Debian's Varnish with varnish-modules (xkey): visitors' pages and the public
# JSON are kept and purged by tag the moment the shop changes what they show; anything personal
# passes straight through (docs/shared-cache.md). The whole picture, in docs/operations.md
# ("Behind a proxy"): TLS -> Varnish -> nginx (deploy/nginx/) -> N shop processes -> PostgreSQL.
# Copy this file to /etc/varnish/default.vcl and set the backend's port to nginx's. Start varnishd
# with two listeners: the public one, and one named "purge" on loopback that only the shop uses
# (`-a :6081 -a purge=127.0.0.1:6091`); on every shop process set VARNISH_URL to the purge one
# (http://127.0.0.1:6091) and TRUST_PROXY to the number of proxies. CI runs this file as it is,
# with only the backend's port changed (src/server/faults/varnish-cache.test.ts).

vcl 4.1;

import std;
import xkey;

# nginx in front of the shop's processes (or a single process).
backend shop {
    .host = "127.0.0.1";
    .port = "8080";
    .connect_timeout = 2s;
    # The shop answers 408 itself after REQUEST_TIMEOUT_SECONDS (120).
    .first_byte_timeout = 130s;
    .between_bytes_timeout = 130s;
    # A shop that stops answering is seen within about 2 s: visitors then get the last copies (grace).
    .probe = {
        .url = "/healthz";
        .interval = 1s;
        .timeout = 1s;
        .window = 3;
        .threshold = 2;
        .initial = 2;
    }
}

# Who may purge, on the "purge" listener: the shop's processes. Add each host that runs one.
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    # What this file tells itself between a request's restarts; never what a client sends.
    if (req.restarts == 0) {
        unset req.http.X-Mango-Kept;
        unset req.http.X-Mango-Fresh;
        unset req.http.X-Mango-Stale-If-Error;
    }
    if (req.method == "PURGE") {
        # A TLS proxy on this host makes every visitor come from loopback: the listener says who it is.
        if (local.socket != "purge" || client.ip !~ purgers) {
            return (synth(403, "Purging is for the shop only."));
        }
        if (!req.http.xkey-purge) {
            return (synth(400, "Name the tags to purge in xkey-purge."));
        }
        set req.http.x-purged = xkey.purge(req.http.xkey-purge);
        return (synth(200, "Purged " + req.http.x-purged + " objects."));
    }
    # Pages are drawn for the shop's own address (PUBLIC_URL), never one a client names.
    unset req.http.X-Forwarded-Host;
    unset req.http.Forwarded;
    # Writes, and anything not read, go to the shop.
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # Several Cookie headers (HTTP/2 sends them so) are read as one.
    std.collect(req.http.Cookie, "; ");
    # A signed-in shopper, or a browser whose own state the page draws (a dismissed banner, the
    # maintenance bypass), is always answered by the shop, never from the cache.
    if (req.http.Cookie ~ "(^|;\s*)(mango_session|adminBypassMaintenance|maintenance_from|dismissed_promo)=" || req.http.Authorization) {
        return (pass);
    }
    # Any other cookie (an analytics one) does not change the page: it is not sent on.
    unset req.http.Cookie;
    # Campaign parameters do not make another page either.
    if (req.url ~ "[?&](utm_[a-z_]+|fbclid|gclid|msclkid)=") {
        set req.url = regsuball(req.url, "([?&])(utm_[a-z_]+|fbclid|gclid|msclkid)=[^&#]*", "\1");
        set req.url = regsuball(req.url, "([?&])&+", "\1");
        set req.url = regsub(req.url, "[?&]+$", "");
    }
    # While the shop answers, a copy past its s-maxage is served at most for the shop's
    # CACHE_STALE_SECONDS (30) while it is fetched again; when no process answers, for hours.
    if (req.http.X-Mango-Stale-If-Error) {
        set req.grace = 6h;
    } else if (std.healthy(req.backend_hint)) {
        set req.grace = 30s;
    }
    # A copy past its stale time while the shop answers: fetched again, not served (vcl_hit).
    if (req.http.X-Mango-Fresh) {
        set req.hash_always_miss = true;
    }
    set req.http.X-Mango-Kept = "1";
    return (hash);
}

sub vcl_hash {
    # One shop behind this Varnish, its pages drawn for PUBLIC_URL whatever Host a client sends:
    # the address alone names a copy, so made-up Host headers cannot make copies of their own.
    hash_data(req.url);
    return (lookup);
}

sub vcl_hit {
    # While the shop answers, a copy is served stale no longer than its stale-while-revalidate
    # (none past an opening or an offer's start or end); after that it is fetched again first.
    if (obj.ttl <= 0s && req.restarts == 0 && std.healthy(req.backend_hint) && obj.ttl + std.duration(obj.http.X-Mango-Stale + "s", 0s) <= 0s) {
        set req.http.X-Mango-Fresh = "1";
        return (restart);
    }
}

sub vcl_backend_fetch {
    unset bereq.http.X-Mango-Kept;
    unset bereq.http.X-Mango-Fresh;
    unset bereq.http.X-Mango-Stale-If-Error;
}

sub vcl_backend_response {
    if (beresp.status >= 500) {
        # A copy being fetched again in the background stays as it was when the fetch fails.
        if (bereq.is_bgfetch) {
            return (abandon);
        }
        # nginx with no shop process behind it: the plain page below, not nginx's own.
        if (beresp.status == 502 || beresp.status == 504) {
            return (error(503, "No shop process answered"));
        }
        # The shop's own error: passed on, and nothing of it is remembered.
        set beresp.uncacheable = true;
        set beresp.ttl = 0s;
        return (deliver);
    }
    # Only what the shop marked public is kept: an answer without Cache-Control (an error, a file
    # not found) is not kept for Varnish's default time. Varnish's own rules then pass on private,
    # no-store and Set-Cookie too.
    if (beresp.http.Cache-Control !~ "(^|,)\s*public\b") {
        set beresp.uncacheable = true;
        set beresp.ttl = 120s;
        return (deliver);
    }
    # Kept for six hours past its s-maxage, for the time every shop process is down.
    set beresp.grace = 6h;
    set beresp.http.X-Mango-Stale = "0";
    if (beresp.http.Cache-Control ~ "stale-while-revalidate=\d+") {
        set beresp.http.X-Mango-Stale = regsub(beresp.http.Cache-Control, "^.*stale-while-revalidate=(\d+).*$", "\1");
    }
}

sub vcl_backend_error {
    # No process answers and there is no copy: a plain page that says so, not a hang.
    set beresp.http.Content-Type = "text/html; charset=utf-8";
    set beresp.http.Retry-After = "30";
    set beresp.http.Cache-Control = "no-store";
    synthetic({"<!doctype html>
<html lang="en-NZ"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Back in a moment - Mango Shop</title></head>
<body style="font-family: sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem; color: #3b2f1e; background: #fffaf0; line-height: 1.5">
<h1 style="font-family: Georgia, serif">Back in a moment</h1>
<p>The shop is restarting and will be back within a minute. Your cart and your orders are safe.</p>
<p><a href="" style="display: inline-block; padding: 0.6rem 1.2rem; border-radius: 999px; background: #F59E0B; color: #1c1917; text-decoration: none; font-weight: 600">Try again</a></p>
</body></html>
"});
    return (deliver);
}

sub vcl_deliver {
    # No shop process answered a page that has a copy older than the healthy grace (the probe has
    # not seen them gone yet): once more, with the copy allowed however old it is.
    if (resp.status == 503 && req.restarts == 0 && req.http.X-Mango-Kept) {
        set req.http.X-Mango-Stale-If-Error = "1";
        return (restart);
    }
    unset resp.http.X-Mango-Stale;
    # stale-while-revalidate is for Varnish: a browser asks again each time, and gets what a purge left.
    if (resp.http.Cache-Control ~ "stale-while-revalidate") {
        set resp.http.Cache-Control = regsub(resp.http.Cache-Control, ",\s*stale-while-revalidate=\d+", "");
    }
    # Whether the answer came from the cache: for the shop's owner, and the tests.
    if (obj.hits > 0) {
        set resp.http.X-Cache = "hit";
    } else {
        set resp.http.X-Cache = "miss";
    }
}
