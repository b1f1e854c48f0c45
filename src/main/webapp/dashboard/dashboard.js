/*
 * Weir dashboard: plain JavaScript, no framework, no build step (ADR 0023).
 *
 * Every piece of data comes from /api/*, called with the credentials the user typed into the log-in form. They are
 * kept in sessionStorage (this tab only, gone when it closes) and sent as HTTP Basic with X-Requested-With on every
 * call, so the server answers 401 without a challenge and the browser shows no dialog of its own.
 *
 * Everything taken from the server reaches the page through textContent or setAttribute, never as HTML.
 */
(function () {
  'use strict';

  const AUTH_KEY = 'weir.auth';
  const USER_KEY = 'weir.user';
  const REFRESH_MS = 2500;
  const PAGE_SIZE = 18;
  const CHART_SECONDS = 600;
  const CHART_BUCKET = 10;
  const STATES = ['scheduled', 'available', 'running', 'retryable', 'completed', 'discarded', 'cancelled'];
  const STATE_LABELS = {
    scheduled: 'sched', available: 'avail', running: 'run', retryable: 'retry',
    completed: 'done', discarded: 'disc', cancelled: 'canc'
  };
  const ROLE_ADMIN = 'weir-admin';
  const ROLE_SUBMITTER = 'weir-submitter';
  const ROLE_VIEWER = 'weir-viewer';
  const SVG_NS = 'http://www.w3.org/2000/svg';

  const state = {
    me: null,             // {user, roles (array, or null when the server has no security)}
    timer: null,
    refreshing: false,
    again: false,
    queueCards: new Map(),
    queueNames: [],
    filters: { queue: '', state: '', kind: '' },
    before: null,         // keyset cursor of the page shown (null: newest)
    olderStack: [],       // cursors of the pages before this one
    nextBefore: null,
    selectedJob: null,
    generation: 0         // bumped at log-out so late answers of an old session are dropped
  };

  const $ = (id) => document.getElementById(id);

  // ---------------------------------------------------------------- DOM helpers (text only, never HTML)

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG_NS, tag);
    setAttrs(node, attrs);
    return node;
  }

  function setAttrs(node, attrs) {
    if (!attrs) return;
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === 'class') node.setAttribute('class', value);
      else if (key === 'text') node.textContent = String(value);
      else if (key.startsWith('on')) node.addEventListener(key.substring(2), value);
      else node.setAttribute(key, String(value));
    }
  }

  function setText(node, text) {
    const value = text === null || text === undefined ? '' : String(text);
    if (node.textContent !== value) node.textContent = value;
  }

  function show(node, visible) {
    node.classList.toggle('hidden', !visible);
  }

  function time(iso, withDate) {
    if (!iso) return '—';
    const d = new Date(iso);
    if (isNaN(d.getTime())) return String(iso);
    const t = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
    const today = new Date().toDateString() === d.toDateString();
    if (today && !withDate) return t;
    return d.toLocaleDateString([], { month: 'short', day: 'numeric' }) + ' ' + t;
  }

  function pct(part, whole) {
    if (!whole || whole <= 0) return 0;
    return Math.max(0, Math.min(100, 100 * part / whole));
  }

  // ---------------------------------------------------------------- API

  class ApiFailure extends Error {
    constructor(status, code, message) {
      super(message);
      this.status = status;
      this.code = code;
    }
  }

  function encodeCredentials(user, password) {
    const bytes = new TextEncoder().encode(user + ':' + password);
    let binary = '';
    bytes.forEach((b) => { binary += String.fromCharCode(b); });
    return btoa(binary);
  }

  async function api(method, path, body) {
    const generation = state.generation;
    const headers = { 'Accept': 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
    const auth = sessionStorage.getItem(AUTH_KEY);
    if (auth) headers['Authorization'] = 'Basic ' + auth;
    const init = { method, headers, credentials: 'omit', cache: 'no-store' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (e) {
      throw new ApiFailure(0, 'unreachable', 'Cannot reach the Weir server.');
    }
    const text = await response.text();
    if (generation !== state.generation) {
      throw new ApiFailure(-1, 'stale', 'signed out meanwhile');
    }
    let data = null;
    if (text) {
      try { data = JSON.parse(text); } catch (e) { data = null; }
    }
    if (response.ok) return data;
    const code = (data && typeof data.error === 'string') ? data.error : 'http_' + response.status;
    const message = (data && typeof data.message === 'string') ? data.message : (response.statusText || code);
    throw new ApiFailure(response.status, code, message);
  }

  /** What to do with a failed call: 401 ends the session, 403 says so, anything else is shown. */
  function report(failure) {
    if (!(failure instanceof ApiFailure)) {
      banner('Unexpected problem: ' + failure, 'error');
      return;
    }
    if (failure.status === -1) return;
    if (failure.status === 401) {
      signOut('Your credentials were not accepted (or have changed). Please sign in again.');
    } else if (failure.status === 403) {
      banner('Your role may not do this (403 Forbidden).', 'error', 'forbidden');
    } else {
      banner(failure.message + (failure.status ? ' (' + failure.status + ' ' + failure.code + ')' : ''), 'error');
    }
  }

  function banner(text, kind, code) {
    const node = $('banner');
    setText($('banner-text'), text);
    node.classList.toggle('error', kind === 'error');
    node.dataset.code = code || '';
    show(node, true);
  }

  function clearBanner() {
    show($('banner'), false);
  }

  // ---------------------------------------------------------------- log-in and log-out

  function isAdmin() {
    return state.me !== null && (state.me.roles === null || state.me.roles.includes(ROLE_ADMIN));
  }

  function roleName(roles) {
    if (roles === null) return 'no security on this server';
    if (roles.includes(ROLE_ADMIN)) return 'admin';
    if (roles.includes(ROLE_SUBMITTER)) return 'submitter';
    if (roles.includes(ROLE_VIEWER)) return 'viewer';
    return 'no Weir role';
  }

  /** Asks the server who the stored credentials belong to; answers null after reporting why not. */
  async function whoAmI(typedUser) {
    try {
      const me = await api('GET', '/api/me');
      return { user: String(me.user), roles: Array.isArray(me.roles) ? me.roles.map(String) : [] };
    } catch (e) {
      if (e instanceof ApiFailure && e.status === 404) {
        // A server without security has no /api/me: every call is open, so nothing is hidden.
        return { user: typedUser || sessionStorage.getItem(USER_KEY) || '', roles: null };
      }
      throw e;
    }
  }

  async function signIn(event) {
    event.preventDefault();
    const user = $('login-user').value.trim();
    const password = $('login-password').value;
    if (!user || !password) {
      setText($('login-message'), 'Enter a user and a password.');
      return;
    }
    $('login-submit').disabled = true;
    setText($('login-message'), '');
    sessionStorage.setItem(AUTH_KEY, encodeCredentials(user, password));
    sessionStorage.setItem(USER_KEY, user);
    try {
      const me = await whoAmI(user);
      $('login-password').value = '';
      enter(me);
    } catch (e) {
      sessionStorage.removeItem(AUTH_KEY);
      let message = 'Cannot sign in: ' + e.message;
      if (e instanceof ApiFailure && e.status === 401) message = 'User or password not accepted.';
      if (e instanceof ApiFailure && e.status === 403) message = 'This user has no Weir role.';
      setText($('login-message'), message);
    } finally {
      $('login-submit').disabled = false;
    }
  }

  function enter(me) {
    state.me = me;
    document.body.classList.toggle('is-admin', isAdmin());
    document.body.dataset.role = roleName(me.roles);
    setText($('who-user'), me.user);
    setText($('who-role'), roleName(me.roles));
    show($('who'), true);
    show($('login-view'), false);
    show($('app-view'), true);
    clearBanner();
    refresh();
  }

  function signOut(message) {
    state.generation++;
    sessionStorage.removeItem(AUTH_KEY);
    sessionStorage.removeItem(USER_KEY);
    state.me = null;
    if (state.timer) clearTimeout(state.timer);
    state.timer = null;
    state.refreshing = false;
    document.body.classList.remove('is-admin');
    delete document.body.dataset.role;
    // Nothing of the session stays on the page.
    $('queues').replaceChildren();
    state.queueCards.clear();
    $('jobs').replaceChildren();
    $('periodic').replaceChildren();
    $('chart').replaceChildren();
    selectJob(null);
    show($('who'), false);
    show($('app-view'), false);
    show($('login-view'), true);
    clearBanner();
    setText($('status'), '');
    setText($('login-message'), message || '');
    $('login-password').value = '';
    $('login-user').focus();
  }

  // ---------------------------------------------------------------- refresh loop

  async function refresh() {
    if (state.me === null) return;
    if (state.refreshing) {
      state.again = true;   // an action asked for fresh data while a refresh was under way
      return;
    }
    state.refreshing = true;
    state.again = false;
    if (state.timer) clearTimeout(state.timer);
    const generation = state.generation;
    const results = await Promise.allSettled([loadQueues(), loadThroughput(), loadJobs(), loadDetail(),
      loadPeriodic()]);
    if (generation !== state.generation) return;
    state.refreshing = false;
    const failures = results.filter((r) => r.status === 'rejected').map((r) => r.reason);
    const unauthorized = failures.find((f) => f instanceof ApiFailure && f.status === 401);
    if (unauthorized) {
      report(unauthorized);
      return;
    }
    const unreachable = failures.find((f) => f instanceof ApiFailure && f.status === 0);
    const other = failures.find((f) => !(f instanceof ApiFailure) || f.status > 0);
    const status = $('status');
    if (unreachable) {
      status.classList.add('stale');
      setText(status, 'Cannot reach the server; retrying…');
    } else if (other) {
      status.classList.add('stale');
      setText(status, 'Some data could not be loaded: ' + other.message);
    } else {
      status.classList.remove('stale');
      setText(status, 'Updated ' + time(new Date().toISOString()));
    }
    state.timer = setTimeout(refresh, state.again ? 0 : REFRESH_MS);
  }

  /** Runs an operator action, reports its failure, and refreshes the page at once. */
  async function act(method, path, body, done) {
    try {
      const answer = await api(method, path, body);
      if (done) done(answer);
    } catch (e) {
      report(e);
    }
    refresh();
  }

  // ---------------------------------------------------------------- queues

  async function loadQueues() {
    const queues = await api('GET', '/api/queues');
    const names = [];
    for (const q of queues) {
      names.push(q.name);
      renderQueue(q);
    }
    for (const [name, card] of state.queueCards) {
      if (!names.includes(name)) {
        card.root.remove();
        state.queueCards.delete(name);
      }
    }
    if (names.join(',') !== state.queueNames.join(',')) {
      state.queueNames = names;
      const select = $('filter-queue');
      const chosen = select.value;
      select.replaceChildren(el('option', { value: '' }, 'all'), ...names.map((n) => el('option', { value: n }, n)));
      select.value = names.includes(chosen) ? chosen : '';
    }
  }

  function gaugeRow(label) {
    const fills = [el('div', { class: 'fill' }), el('div', { class: 'fill overflow' })];
    const value = el('span', { class: 'value' });
    const row = el('div', { class: 'gauge' }, el('span', { class: 'label' }, label),
      el('div', { class: 'bar' }, ...fills), value);
    return { row, fills, value };
  }

  function queueCard(name) {
    let card = state.queueCards.get(name);
    if (card) return card;
    const counts = {};
    const countCells = STATES.map((s) => {
      const number = el('b', null, '0');
      counts[s] = number;
      return el('div', { class: 'count state-' + s, 'data-state': s, title: s }, number,
        el('span', null, STATE_LABELS[s]));
    });
    const paused = el('span', { class: 'paused-badge hidden' }, 'paused');
    const toggle = el('button', { type: 'button', class: 'button small admin-only', 'data-action': 'pause' }, 'Pause');
    toggle.addEventListener('click', () => {
      const action = toggle.dataset.action;
      act('POST', '/api/queues/' + encodeURIComponent(name) + '/' + action);
    });
    const capacity = gaugeRow('capacity');
    const admission = gaugeRow('admission');
    const meta = el('div', { class: 'queue-meta' });
    const root = el('article', { class: 'queue', 'data-queue': name },
      el('div', { class: 'queue-head' }, el('span', { class: 'queue-name' }, name), paused, toggle),
      el('div', { class: 'counts' }, ...countCells),
      capacity.row, admission.row, meta);
    $('queues').append(root);
    card = { root, counts, countCells, paused, toggle, capacity, admission, meta };
    state.queueCards.set(name, card);
    return card;
  }

  function setBar(gauge, parts, title) {
    gauge.fills.forEach((fill, i) => {
      const p = parts[i] || { width: 0, cls: '' };
      fill.style.width = p.width + '%';
      fill.className = 'fill ' + (p.cls || '');
    });
    gauge.row.title = title || '';
  }

  function renderQueue(q) {
    const card = queueCard(q.name);
    const counts = q.counts || {};
    STATES.forEach((s, i) => {
      const n = Number(counts[s] || 0);
      setText(card.counts[s], n.toLocaleString());
      card.countCells[i].classList.toggle('zero', n === 0);
    });
    card.root.classList.toggle('paused', !!q.paused);
    card.root.dataset.paused = String(!!q.paused);
    show(card.paused, !!q.paused);
    card.toggle.dataset.action = q.paused ? 'resume' : 'pause';
    setText(card.toggle, q.paused ? 'Resume' : 'Pause');

    const meta = [];
    const c = q.capacity;
    if (!c) {
      setBar(card.capacity, [], 'not dispatching on this instance');
      setText(card.capacity.value, '—');
      meta.push('not dispatching on this instance');
    } else if (c.mode === 'weighted') {
      // In flight against what the queue may use now: its guaranteed minimum plus the overflow it holds.
      const budget = Math.max(1, c.minWorkers + c.overflowHeld, c.inFlight);
      const inMin = Math.min(c.inFlight, c.minWorkers);
      setBar(card.capacity, [{ width: pct(inMin, budget), cls: 'min' },
        { width: pct(c.inFlight - inMin, budget), cls: 'overflow' }],
      c.inFlight + ' in flight; ' + c.minWorkers + ' guaranteed + ' + c.overflowHeld + ' overflow held');
      setText(card.capacity.value, c.inFlight + ' / ' + c.minWorkers + '+' + c.overflowHeld);
      meta.push('weighted · weight ' + c.weight + ' · min ' + c.minWorkers + ' · overflow held ' + c.overflowHeld);
    } else {
      setBar(card.capacity, [{ width: pct(c.inFlight, c.maxWorkers), cls: '' }],
        c.inFlight + ' of ' + c.maxWorkers + ' permits in flight');
      setText(card.capacity.value, c.inFlight + ' / ' + c.maxWorkers);
      meta.push('hard-reserved · ' + c.maxWorkers + ' workers');
    }

    const a = q.admission;
    if (!a) {
      setBar(card.admission, [], 'no max-pending: admission is unbounded');
      setText(card.admission.value, 'unbounded');
    } else {
      const fill = pct(a.outstanding, a.maxPending);
      setBar(card.admission, [{ width: fill, cls: fill >= 100 ? 'full' : fill >= 80 ? 'warn' : '' }],
        a.outstanding + ' outstanding of ' + a.maxPending + ' allowed');
      setText(card.admission.value, a.outstanding + ' / ' + a.maxPending);
      const refused = a.refusals !== undefined ? a.refusals : a.refused;
      if (refused !== undefined) meta.push(refused + ' refused');
    }
    const r = q.rateLimit;
    if (r) {
      meta.push('rate ' + r.rate + '/s, burst ' + r.burst + (r.tokens !== undefined ? ', ' + Number(r.tokens)
        .toFixed(1) + ' tokens' : ''));
    }
    setText(card.meta, meta.join(' · '));
  }

  // ---------------------------------------------------------------- throughput chart

  async function loadThroughput() {
    let data;
    try {
      data = await api('GET', '/api/stats/throughput?seconds=' + CHART_SECONDS + '&bucket=' + CHART_BUCKET);
    } catch (e) {
      if (e instanceof ApiFailure && e.status > 0 && e.status !== 401) {
        const note = svg('text', { x: 450, y: 95, 'text-anchor': 'middle', class: 'chart-note' });
        note.textContent = 'Throughput unavailable: ' + e.message + ' (' + e.status + ')';
        $('chart').replaceChildren(note);
        return;
      }
      throw e;
    }
    renderChart(data);
  }

  function niceMax(n) {
    if (n <= 5) return 5;
    const magnitude = Math.pow(10, Math.floor(Math.log10(n)));
    for (const step of [1, 2, 2.5, 5, 10]) {
      if (step * magnitude >= n) return step * magnitude;
    }
    return 10 * magnitude;
  }

  function renderChart(data) {
    const chart = $('chart');
    const buckets = (data && Array.isArray(data.buckets)) ? data.buckets : [];
    const bucketSeconds = (data && data.bucketSeconds) || CHART_BUCKET;
    const W = 900;
    const H = 180;
    const top = 8;
    const totals = buckets.map((b) => (b.completed || 0) + (b.discarded || 0) + (b.cancelled || 0));
    const max = niceMax(Math.max(0, ...totals));
    const nodes = [];
    for (let i = 1; i <= 4; i++) {
      const y = top + (H - top) * i / 4;
      nodes.push(svg('line', { class: 'grid', x1: 0, x2: W, y1: y, y2: y }));
    }
    const slot = buckets.length ? W / buckets.length : W;
    const gap = slot > 6 ? 2 : 0;
    buckets.forEach((b, i) => {
      let y = H;
      for (const kind of ['completed', 'discarded', 'cancelled']) {
        const n = b[kind] || 0;
        if (n <= 0) continue;
        const h = (H - top) * n / max;
        y -= h;
        const rect = svg('rect', { class: kind, x: i * slot + gap / 2, y: y, width: Math.max(1, slot - gap),
          height: h });
        const title = svg('title');
        title.textContent = time(b.at) + ': ' + n + ' ' + kind;
        rect.append(title);
        nodes.push(rect);
      }
    });
    chart.replaceChildren(...nodes);
    setText($('chart-from'), buckets.length ? time(buckets[0].at) : '');
    setText($('chart-to'), 'now');
    setText($('chart-max'), 'scale: ' + max.toLocaleString() + ' jobs per ' + bucketSeconds + ' s');
    // Rates over the last full minute (the newest bucket is still filling).
    const last = buckets.slice(-1 - Math.round(60 / bucketSeconds), -1);
    const seconds = Math.max(1, last.length * bucketSeconds);
    for (const kind of ['completed', 'discarded', 'cancelled']) {
      const sum = last.reduce((acc, b) => acc + (b[kind] || 0), 0);
      setText($('rate-' + kind), (sum / seconds).toFixed(sum / seconds >= 10 ? 0 : 1) + '/s');
    }
  }

  // ---------------------------------------------------------------- job list

  function jobsQuery() {
    const params = new URLSearchParams();
    if (state.filters.queue) params.set('queue', state.filters.queue);
    if (state.filters.state) params.set('state', state.filters.state);
    if (state.filters.kind) params.set('kind', state.filters.kind);
    if (state.before !== null) params.set('before', String(state.before));
    params.set('limit', String(PAGE_SIZE));
    return '/api/jobs?' + params.toString();
  }

  async function loadJobs() {
    let page;
    try {
      page = await api('GET', jobsQuery());
    } catch (e) {
      if (e instanceof ApiFailure && e.status !== 401 && e.status !== -1) {
        $('jobs').replaceChildren(el('tr', null, el('td', { class: 'empty', colspan: 7 },
          'Cannot list jobs: ' + e.message + (e.status ? ' (' + e.status + ')' : ''))));
        $('page-older').disabled = true;
        return;
      }
      throw e;
    }
    const jobs = Array.isArray(page.jobs) ? page.jobs : [];
    state.nextBefore = page.nextBefore === undefined ? null : page.nextBefore;
    const rows = jobs.map(jobRow);
    if (rows.length === 0) {
      rows.push(el('tr', null, el('td', { class: 'empty', colspan: 7 },
        state.before === null ? 'No jobs match these filters.' : 'No older jobs.')));
    }
    $('jobs').replaceChildren(...rows);
    $('page-older').disabled = state.nextBefore === null;
    $('page-newer').disabled = state.before === null;
    setText($('page-info'), 'page ' + (state.olderStack.length + 1));
  }

  function jobRow(job) {
    const classes = [job.id === state.selectedJob ? 'selected' : '', job.state === 'completed' ? 'done' : ''];
    const row = el('tr', { 'data-job-id': job.id, class: classes.join(' ').trim() || null },
      el('td', { class: 'num' }, job.id),
      el('td', { title: job.kind }, job.kind),
      el('td', null, job.queue),
      el('td', null, el('span', { class: 'chip state-' + job.state }, job.state),
        job.cancelRequested ? el('span', { class: 'chip state-cancelled', title: 'cancel requested' }, '✕') : null),
      el('td', { class: 'num' }, job.attempt + ' / ' + job.maxAttempts),
      el('td', { title: job.createdAt }, time(job.createdAt)),
      el('td', { class: 'error-cell', title: job.lastError || '' }, job.lastError || ''));
    row.addEventListener('click', () => selectJob(job.id));
    return row;
  }

  function applyFilters(event) {
    event.preventDefault();
    state.filters = {
      queue: $('filter-queue').value,
      state: $('filter-state').value,
      kind: $('filter-kind').value.trim()
    };
    state.before = null;
    state.olderStack = [];
    refresh();
  }

  function older() {
    if (state.nextBefore === null) return;
    state.olderStack.push(state.before);
    state.before = state.nextBefore;
    refresh();
  }

  function newer() {
    if (state.olderStack.length === 0) return;
    state.before = state.olderStack.pop();
    refresh();
  }

  function bulkRetry() {
    const body = {};
    const what = [];
    if (state.filters.queue) { body.queue = state.filters.queue; what.push('queue ' + state.filters.queue); }
    if (state.filters.kind) { body.kind = state.filters.kind; what.push('kind ' + state.filters.kind); }
    const scope = what.length ? ' of ' + what.join(' and ') : ' of every queue and kind';
    if (!window.confirm('Make every discarded job' + scope + ' available again?')) return;
    act('POST', '/api/jobs/retry', body, (answer) => {
      banner((answer && answer.retried !== undefined ? answer.retried : 0) + ' discarded jobs' + scope
        + ' made available again.', 'info');
    });
  }

  // ---------------------------------------------------------------- job detail

  function selectJob(id) {
    state.selectedJob = id;
    for (const row of $('jobs').querySelectorAll('tr[data-job-id]')) {
      row.classList.toggle('selected', Number(row.dataset.jobId) === id);
    }
    show($('detail-empty'), id === null);
    show($('detail-body'), false);
    if (id !== null) {
      setText($('detail-empty'), 'Loading job ' + id + '…');
      show($('detail-empty'), true);
      loadDetail().catch(report);
    } else {
      setText($('detail-empty'), 'Select a job to see its arguments, progress and errors.');
    }
  }

  async function loadDetail() {
    const id = state.selectedJob;
    if (id === null) return;
    let job;
    try {
      job = await api('GET', '/api/jobs/' + encodeURIComponent(id));
    } catch (e) {
      if (e instanceof ApiFailure && e.status === 404 && state.selectedJob === id) {
        setText($('detail-empty'), 'Job ' + id + ' no longer exists.');
        show($('detail-empty'), true);
        show($('detail-body'), false);
        return;
      }
      throw e;
    }
    if (state.selectedJob === id) renderDetail(job);
  }

  function renderDetail(job) {
    show($('detail-empty'), false);
    show($('detail-body'), true);
    const body = $('detail-body');
    body.dataset.jobId = String(job.id);
    body.dataset.state = job.state;
    setText($('detail-id'), job.id);
    const chip = $('detail-state');
    chip.className = 'chip state-' + job.state;
    setText(chip, job.state);
    show($('detail-cancel-requested'), !!job.cancelRequested);

    const fields = [
      ['kind', job.kind], ['queue', job.queue], ['priority', job.priority],
      ['attempt', job.attempt + ' of ' + job.maxAttempts],
      ['run at', time(job.runAt, true)], ['created', time(job.createdAt, true)],
      ['attempted', time(job.attemptedAt, true)], ['finalized', time(job.finalizedAt, true)]
    ];
    $('detail-fields').replaceChildren(...fields.flatMap(([k, v]) => [el('dt', null, k),
      el('dd', { 'data-field': k }, v)]));

    const p = job.progress;
    show($('detail-progress'), !!p);
    if (p) {
      const percent = typeof p.percent === 'number' ? p.percent : 0;
      $('detail-progress-fill').style.width = pct(percent, 100) + '%';
      setText($('detail-progress-text'), percent + ' %' + (p.message ? ' · ' + p.message : '')
        + (p.at ? ' · ' + time(p.at) : ''));
    }

    const s = job.state;
    $('action-retry').disabled = !['discarded', 'cancelled', 'completed', 'retryable', 'scheduled'].includes(s);
    $('action-cancel').disabled = !['scheduled', 'available', 'retryable', 'running'].includes(s)
      || !!job.cancelRequested;
    $('action-discard').disabled = !['scheduled', 'available', 'retryable'].includes(s);

    setText($('detail-args'), JSON.stringify(job.args === undefined ? null : job.args, null, 2));
    const errors = Array.isArray(job.errors) ? job.errors : [];
    setText($('detail-error-count'), errors.length ? '(' + errors.length + ')' : '(none)');
    // Newest first: the last failure is what an operator looks for.
    $('detail-errors').replaceChildren(...errors.slice().reverse().map((e) => el('li', null,
      el('div', { class: 'error-head' }, 'attempt ' + e.attempt + ' · ' + time(e.at, true)),
      el('pre', null, e.error))));
  }

  function jobAction(action) {
    const id = state.selectedJob;
    if (id === null) return;
    act('POST', '/api/jobs/' + encodeURIComponent(id) + '/' + action, undefined, (job) => {
      if (job && job.id === state.selectedJob) renderDetail(job);
    });
  }

  // ---------------------------------------------------------------- periodic jobs

  async function loadPeriodic() {
    const list = await api('GET', '/api/periodic');
    const rows = list.map((p) => {
      const paused = p.paused === true;
      const actions = el('td', { class: 'admin-only' },
        el('button', { type: 'button', class: 'button small', 'data-action': paused ? 'resume' : 'pause',
          onclick: () => act('POST', '/api/periodic/' + encodeURIComponent(p.name) + (paused ? '/resume' : '/pause'))
        }, paused ? 'Resume' : 'Pause'),
        el('button', { type: 'button', class: 'button small', 'data-action': 'run',
          onclick: () => act('POST', '/api/periodic/' + encodeURIComponent(p.name) + '/run', undefined,
            (answer) => banner('Periodic job ' + p.name + ' submitted job ' + (answer ? answer.id : '?') + '.',
              'info'))
        }, 'Run now'));
      return el('tr', { 'data-periodic': p.name },
        el('td', null, el('b', null, p.name)),
        el('td', { title: p.timeZone }, p.schedule + ' (' + p.timeZone + ')'),
        el('td', null, p.kind),
        el('td', null, p.queue),
        el('td', { title: p.nextFireAt || '' }, time(p.nextFireAt, true)),
        el('td', { title: p.lastFireAt || '' }, p.lastFireAt ? time(p.lastFireAt, true) : 'never'),
        el('td', null, p.paused === null ? el('span', { class: 'chip' }, 'starting')
          : paused ? el('span', { class: 'paused-badge' }, 'paused') : el('span', { class: 'chip state-completed' },
            'active')),
        actions);
    });
    if (rows.length === 0) {
      rows.push(el('tr', null, el('td', { class: 'empty', colspan: 8 }, 'No periodic jobs are configured.')));
    }
    $('periodic').replaceChildren(...rows);
  }

  // ---------------------------------------------------------------- start

  async function start() {
    $('login-form').addEventListener('submit', signIn);
    $('logout').addEventListener('click', () => signOut('Signed out.'));
    $('banner-close').addEventListener('click', clearBanner);
    $('filters').addEventListener('submit', applyFilters);
    $('filter-queue').addEventListener('change', applyFilters);
    $('filter-state').addEventListener('change', applyFilters);
    $('page-older').addEventListener('click', older);
    $('page-newer').addEventListener('click', newer);
    $('bulk-retry').addEventListener('click', bulkRetry);
    $('action-retry').addEventListener('click', () => jobAction('retry'));
    $('action-cancel').addEventListener('click', () => jobAction('cancel'));
    $('action-discard').addEventListener('click', () => jobAction('discard'));

    if (sessionStorage.getItem(AUTH_KEY)) {
      try {
        enter(await whoAmI(null));
        return;
      } catch (e) {
        sessionStorage.removeItem(AUTH_KEY);
      }
    }
    signOut('');
  }

  start();
}());
