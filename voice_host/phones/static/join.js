// The player page: join with the code and a name, then send the microphone to the host.
'use strict';
(function () {
  const boot = JSON.parse(document.getElementById('boot').textContent);
  const $ = (id) => document.getElementById(id);
  const say = (text) => { $('status').textContent = text; };
  for (const name of boot.players) {
    const option = document.createElement('option');
    option.value = name;
    option.textContent = name;
    $('name').appendChild(option);
  }
  let audio = null;
  let hold = false;      // push-to-talk: audio goes only while the button is held
  let talking = false;   // the button is held (or was let go less than TAIL ms ago)
  let socket = null;
  const TAIL = 250;      // ms still sent after the button is let go: a word's last sound is not cut
  let letGo = null;

  function mode(on) {
    hold = on;
    $('mode').setAttribute('aria-pressed', String(on));
    $('mode').textContent = on ? 'Push to talk: on' : 'Push to talk: off';
    $('talk').hidden = !on;
    try { localStorage.setItem('voice-host-hold', on ? '1' : ''); } catch (e) { /* not kept */ }
  }

  function press(event) {
    if (event) event.preventDefault();
    clearTimeout(letGo);
    letGo = null;
    if (!talking && socket && socket.readyState === 1) socket.send(JSON.stringify({ talk: true }));
    talking = true;
    $('talk').setAttribute('aria-pressed', 'true');
    $('talk').textContent = 'Talking… let go when done';
  }

  function release(event) {
    if (event) event.preventDefault();
    if (!talking || letGo) return;
    $('talk').setAttribute('aria-pressed', 'false');
    $('talk').textContent = 'Hold to talk';
    letGo = setTimeout(() => {
      talking = false;
      letGo = null;
      if (socket && socket.readyState === 1) socket.send(JSON.stringify({ talk: false }));
    }, TAIL);
  }

  async function microphone() {
    if (audio) return audio;
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
    const context = new AudioContext();
    await context.audioWorklet.addModule('/phone-worklet.js');
    const node = new AudioWorkletNode(context, 'pcm-sender');
    const mute = context.createGain();
    mute.gain.value = 0;
    context.createMediaStreamSource(stream).connect(node);
    node.connect(mute).connect(context.destination);
    await context.resume();
    audio = { context: context, node: node };
    return audio;
  }

  function show(view) {
    $('score').textContent = view.total === null ? '' : view.total + ' ' + (view.unit || '');
    const turn = view.mine ? '▶ Your turn' : (view.turn ? view.turn + "'s turn" : '');
    $('turn').textContent = [turn, view.status].filter(Boolean).join(' · ');
    $('said').textContent = view.said;
  }

  let heard = false;  // the host listens to this phone: its microphone is sent
  function listening(name, yes) {
    heard = yes;
    document.documentElement.dataset.listening = yes ? 'yes' : 'no';
    $('me').textContent = (yes ? 'Listening as ' : 'Joined as ') + name;
    say(yes ? 'Connected. Speak as you would to the host.'
      : 'Joined. The host is getting ready: wait until this page says Connected before you speak.');
  }

  async function join(event) {
    event.preventDefault();
    $('join').disabled = true;
    say('Asking for the microphone…');
    let mic;
    try {
      mic = await microphone();
    } catch (err) {
      say('No microphone: ' + err.message + '. Allow it for this page and try again.');
      $('join').disabled = false;
      return;
    }
    let told = false;    // the host said why it closed (refused, or the table freed this phone)
    let retry = 0;       // seconds before the host will check again
    socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/phone');
    socket.binaryType = 'arraybuffer';
    socket.onopen = () => {
      socket.send(JSON.stringify({ code: $('code').value.trim(), name: $('name').value, rate: mic.context.sampleRate }));
    };
    socket.onmessage = (message) => {
      const data = JSON.parse(message.data);
      if (data.joined) {
        document.documentElement.dataset.joined = data.joined;
        $('join-form').hidden = true;
        $('playing').hidden = false;
        listening(data.joined, data.listening);
        mic.node.port.onmessage = (block) => {
          if (socket.readyState === 1 && heard && (!hold || talking)) socket.send(block.data);
        };
      } else if (data.listening !== undefined) {
        listening(document.documentElement.dataset.joined, data.listening);
      } else if (data.refused || data.left) {
        told = true;
        say(data.refused || data.left);
        retry = data.retry || 0;
      } else if (data.view) {
        show(data.view);
      }
    };
    socket.onclose = () => {
      mic.node.port.onmessage = null;
      delete document.documentElement.dataset.joined;
      $('join-form').hidden = false;
      $('playing').hidden = true;
      if (!told) {
        say('The connection to the host was lost. Check that this phone is on the same network, then tap Join.');
      }
      // Join again once the host will check again (at once after a wrong code or name)
      setTimeout(() => { $('join').disabled = false; }, retry * 1000);
    };
  }
  $('join-form').addEventListener('submit', join);
  $('mode').addEventListener('click', () => mode(!hold));
  const talk = $('talk');
  talk.addEventListener('pointerdown', press);
  for (const kind of ['pointerup', 'pointercancel', 'pointerleave']) talk.addEventListener(kind, release);
  talk.addEventListener('keydown', (e) => { if ((e.key === ' ' || e.key === 'Enter') && !e.repeat) press(e); });
  talk.addEventListener('keyup', (e) => { if (e.key === ' ' || e.key === 'Enter') release(e); });
  talk.addEventListener('contextmenu', (e) => e.preventDefault());
  let kept = '';
  try { kept = localStorage.getItem('voice-host-hold') || ''; } catch (e) { /* private window */ }
  mode(kept === '1');
})();
