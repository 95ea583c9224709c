import Add from '@mui/icons-material/Add';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Save from '@mui/icons-material/Save';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useErrorToast } from '../../ui/useErrorToast';
import { ConfirmDialog } from '../../kit/ConfirmDialog';
import type { QueueOptionNode } from './types';
import './i18n';

/** The number the next option of a level gets: one more than the highest there. */
export const nextOptionNumber = (siblings: readonly { option: string }[]): string =>
  String(siblings.reduce((max, s) => Math.max(max, Number(s.option) || 0), 0) + 1);

/** A free number among siblings, to park an option while two swap places. */
const parkingNumber = (siblings: readonly { option: string }[]): string => {
  const used = new Set(siblings.map((s) => s.option));
  for (let n = 999; n > 0; n--) if (!used.has(String(n))) return String(n);
  return '0';
};

// Enter in an option field must not submit the queue form around it.
const noSubmit = (e: KeyboardEvent) => {
  if (e.key === 'Enter' && !(e.target as HTMLElement).matches('textarea')) e.preventDefault();
};

/**
 * Options typed but not saved yet, by node: the queue dialog saves them with the queue and asks
 * before closing over them, so nothing typed is lost (issue 13).
 */
export class PendingOptions {
  private readonly saves = new Map<string, () => Promise<unknown>>();
  private readonly listeners = new Set<() => void>();

  set(key: string, save: (() => Promise<unknown>) | null): void {
    const had = this.saves.has(key);
    if (save) this.saves.set(key, save);
    else this.saves.delete(key);
    if (had !== this.saves.has(key)) this.listeners.forEach((l) => l());
  }

  get count(): number {
    return this.saves.size;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Saves every pending option, one after the other (siblings' numbers must not race). */
  async saveAll(): Promise<void> {
    for (const save of [...this.saves.values()]) await save();
  }
}

interface Ctx {
  queueId: number;
  pending?: PendingOptions;
  reload(): Promise<void>;
  run(action: () => Promise<unknown>): Promise<void>;
}

interface NodeProps {
  ctx: Ctx;
  node: QueueOptionNode | null;
  parentId: number | null;
  siblings: QueueOptionNode[];
  index: number;
  path: string;
  onDraftDone?(): void;
}

/** One option: its number, title, message and attachment, then its children. */
function OptionNode({ ctx, node, parentId, siblings, index, path, onDraftDone }: NodeProps) {
  const { t } = useTranslation();
  const [option, setOption] = useState(node?.option ?? nextOptionNumber(siblings));
  const [title, setTitle] = useState(node?.title ?? '');
  const [message, setMessage] = useState(node?.message ?? '');
  const [addingChild, setAddingChild] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const badNumber = !/^\d{1,3}$/.test(option.trim());
  const dirty = !node || node.option !== option || node.title !== title || node.message !== message;
  const label = path ? `${path}.${option}` : option;

  const write = useCallback(async () => {
    if (node) await api.put(`/queue-options/${node.id}`, { option, title, message });
    else {
      await api.post('/queue-options', { queueId: ctx.queueId, parentId, option, title, message });
      onDraftDone?.();
    }
  }, [node, option, title, message, ctx.queueId, parentId, onDraftDone]);

  const save = () =>
    ctx.run(async () => {
      if (!badNumber) await write();
    });

  // A draft counts once something was typed in it; an edited option as soon as it differs.
  const unsaved = node ? dirty : title.trim() !== '' || message.trim() !== '';
  const pendingKey = node ? `node-${node.id}` : `draft-${parentId ?? 'root'}`;
  const { pending } = ctx;
  useEffect(() => {
    if (!pending) return;
    // A typed option with a bad number is still pending: saving the queue reports it.
    const refuse = () => Promise.reject(new Error(t('queues.options.invalidNumber')));
    pending.set(pendingKey, unsaved ? (badNumber ? refuse : write) : null);
    return () => pending.set(pendingKey, null);
  }, [pending, pendingKey, unsaved, badNumber, write, t]);

  const swap = (other: QueueOptionNode | undefined) =>
    ctx.run(async () => {
      if (!node || !other) return;
      const park = parkingNumber(siblings);
      await api.put(`/queue-options/${node.id}`, { option: park });
      await api.put(`/queue-options/${other.id}`, { option: node.option });
      await api.put(`/queue-options/${node.id}`, { option: other.option });
    });

  const upload = (file: File | undefined) =>
    ctx.run(async () => {
      if (!node || !file) return;
      const data = new FormData();
      data.append('file', file);
      await api.post(`/queue-options/${node.id}/media-upload`, data);
    });

  return (
    <Box
      data-testid={`option-${label}`}
      sx={{ borderLeft: 2, borderColor: 'divider', pl: 1.5, py: 1 }}
      onKeyDown={noSubmit}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          size="small"
          label={t('queues.options.option')}
          value={option}
          onChange={(e) => setOption(e.target.value)}
          error={badNumber}
          helperText={badNumber ? t('queues.options.invalidNumber') : undefined}
          sx={{ width: 90 }}
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 3 } }}
        />
        <TextField
          size="small"
          label={t('queues.options.optionTitle')}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          fullWidth
        />
        <Tooltip title={t('queues.options.save')}>
          <span>
            <IconButton aria-label={t('queues.options.save')} disabled={!dirty} onClick={save}>
              <Save />
            </IconButton>
          </span>
        </Tooltip>
        {node && (
          <>
            <IconButton
              aria-label={t('queues.options.moveUp')}
              disabled={index === 0}
              onClick={() => swap(siblings[index - 1])}
            >
              <ArrowUpward fontSize="small" />
            </IconButton>
            <IconButton
              aria-label={t('queues.options.moveDown')}
              disabled={index === siblings.length - 1}
              onClick={() => swap(siblings[index + 1])}
            >
              <ArrowDownward fontSize="small" />
            </IconButton>
            <IconButton aria-label={t('admin.attach')} onClick={() => fileInput.current?.click()}>
              <AttachFile fontSize="small" />
            </IconButton>
            <input
              ref={fileInput}
              type="file"
              hidden
              onChange={(e) => upload(e.target.files?.[0])}
            />
          </>
        )}
        <IconButton
          aria-label={t('common.delete')}
          onClick={() => (node ? setConfirm(true) : onDraftDone?.())}
        >
          <DeleteOutlined fontSize="small" />
        </IconButton>
      </Stack>
      <TextField
        size="small"
        label={t('queues.options.message')}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        fullWidth
        multiline
        minRows={2}
        sx={{ mt: 1 }}
      />
      {node?.mediaName && (
        <Typography variant="caption" color="text.secondary">
          {node.mediaName}
        </Typography>
      )}
      {node && (
        <Box sx={{ pl: 2 }}>
          <Level
            ctx={ctx}
            nodes={node.children}
            parentId={node.id}
            path={label}
            adding={addingChild}
            setAdding={setAddingChild}
            addLabel={t('queues.options.addChild')}
          />
        </Box>
      )}
      <ConfirmDialog
        open={confirm}
        onClose={() => setConfirm(false)}
        onConfirm={() => ctx.run(() => api.delete(`/queue-options/${node?.id}`))}
      />
    </Box>
  );
}

interface LevelProps {
  ctx: Ctx;
  nodes: QueueOptionNode[];
  parentId: number | null;
  path: string;
  adding: boolean;
  setAdding(adding: boolean): void;
  addLabel: string;
}

function Level({ ctx, nodes, parentId, path, adding, setAdding, addLabel }: LevelProps) {
  return (
    <>
      {nodes.map((node, index) => (
        <OptionNode
          key={`${node.id}-${node.option}-${node.title}-${node.message}`}
          ctx={ctx}
          node={node}
          parentId={parentId}
          siblings={nodes}
          index={index}
          path={path}
        />
      ))}
      {adding && (
        <OptionNode
          ctx={ctx}
          node={null}
          parentId={parentId}
          siblings={nodes}
          index={nodes.length}
          path={path}
          onDraftDone={() => setAdding(false)}
        />
      )}
      <Button size="small" startIcon={<Add />} disabled={adding} onClick={() => setAdding(true)}>
        {addLabel}
      </Button>
    </>
  );
}

/** The chatbot option tree of a queue (admin §3): add, edit, nest, reorder, attach, delete. */
export function OptionTree({ queueId, pending }: { queueId: number; pending?: PendingOptions }) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const [roots, setRoots] = useState<QueueOptionNode[]>([]);
  const [adding, setAdding] = useState(false);

  const reload = useCallback(async () => {
    setRoots(
      await api.get<QueueOptionNode[]>('/queue-options', { query: { queueId, parentId: -1 } }),
    );
  }, [queueId]);

  useEffect(() => {
    reload().catch(showError);
  }, [reload, showError]);

  const run = useCallback(
    async (action: () => Promise<unknown>) => {
      try {
        await action();
      } catch (error) {
        showError(error);
      }
      await reload().catch(showError);
    },
    [reload, showError],
  );

  return (
    <Box data-testid="option-tree">
      <Typography variant="subtitle1">{t('queues.options.title')}</Typography>
      <Level
        ctx={{ queueId, pending, reload, run }}
        nodes={roots}
        parentId={null}
        path=""
        adding={adding}
        setAdding={setAdding}
        addLabel={t('queues.options.add')}
      />
    </Box>
  );
}
