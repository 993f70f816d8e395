// The dashboard's HTML shell: a header, an empty main the script fills, and the two assets (versioned, so a deploy refreshes them).
import { ASSETS_VERSION } from "./assets.generated.js";

export const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>edgegym</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard/app.css?v=${ASSETS_VERSION}">
<script type="module" src="/dashboard/app.js?v=${ASSETS_VERSION}"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><a class="brand" href="#/jobs">edgegym</a><nav id="nav" class="main-nav" aria-label="Main"></nav></header>
<main id="main" tabindex="-1"><noscript>The dashboard needs JavaScript; the API is at /v1/jobs.</noscript></main>
</body>
</html>
`;
