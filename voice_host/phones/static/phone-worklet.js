// The phone's microphone as 16-bit PCM: blocks of about 40 ms, sent to the page.
class PcmSender extends AudioWorkletProcessor {
  constructor() {
    super();
    this.size = Math.max(128, Math.round(sampleRate * 0.04));
    this.block = new Int16Array(this.size);
    this.used = 0;
  }
  process(inputs) {
    const input = inputs[0];
    if (input && input[0]) {
      const samples = input[0];
      for (let i = 0; i < samples.length; i++) {
        const s = Math.max(-1, Math.min(1, samples[i]));
        this.block[this.used++] = s < 0 ? s * 0x8000 : s * 0x7fff;
        if (this.used === this.size) {
          this.port.postMessage(this.block.buffer, [this.block.buffer]);
          this.block = new Int16Array(this.size);
          this.used = 0;
        }
      }
    }
    return true;
  }
}
registerProcessor('pcm-sender', PcmSender);
