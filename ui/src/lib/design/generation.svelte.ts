// One generation at a time, as the Design tab runs it: started (`start_generation`), followed
// (`generation_events`) with its steps as they come, and cancelled — after which nothing it
// sends is taken, so the plan in the editor stays as it was.
import type { GenerateRequest } from '../api/types/GenerateRequest';
import type { GenerationResult } from '../api/types/GenerationResult';
import type { GenerationStep } from '../api/types/GenerationStep';
import { toApiError, type Api, type ApiError } from '../api/transport';
import { progressRows } from './progress';

export interface GenerationHandlers {
  done: (result: GenerationResult) => void;
  failed: (error: ApiError) => void;
}

export class Generation {
  running = $state(false);
  steps = $state<GenerationStep[]>([]);
  readonly progress = $derived(progressRows(this.steps, !this.running));
  #stop: (() => void) | null = null;
  /** Which generation the answers coming in belong to; a cancel moves it on. */
  #seq = 0;

  constructor(private readonly api: Pick<Api, 'startGeneration' | 'watchGeneration'>) {}

  async start(request: GenerateRequest, on: GenerationHandlers): Promise<void> {
    if (this.running) return;
    const mine = ++this.#seq;
    const current = () => mine === this.#seq;
    this.running = true;
    this.steps = [];
    try {
      const { generation } = await this.api.startGeneration(request);
      if (!current()) return;
      this.#stop = this.api.watchGeneration(generation, {
        onEvent: (event) => {
          if (!current()) return;
          if (event.type === 'progress') this.steps = [...this.steps, event.step];
          else if (event.type === 'done') on.done(event.result);
          else on.failed(toApiError(event.error));
        },
        onEnd: () => {
          if (current()) this.#end();
        },
        onError: (e) => {
          if (!current()) return;
          on.failed(e);
          this.#end();
        },
      });
    } catch (e) {
      if (current()) {
        on.failed(toApiError(e));
        this.#end();
      }
    }
  }

  /** Stops the generation under way; whatever it still sends is ignored. False when none was. */
  cancel(): boolean {
    if (!this.running) return false;
    this.#seq++;
    this.#stop?.();
    this.#end();
    this.steps = [];
    return true;
  }

  #end() {
    this.running = false;
    this.#stop = null;
  }
}
