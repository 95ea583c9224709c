import {
  DragDropContext,
  Draggable,
  Droppable,
  type DraggableProvided,
  type DraggableRubric,
  type DraggableStateSnapshot,
  type DropResult,
} from '@hello-pangea/dnd';
import {
  formatPhoneDisplay,
  kanbanEndpoints,
  ticketEvent,
  type KanbanTicket,
  type TagAnswer,
} from '@atende/shared';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { api } from '../../api';
import { ApiError } from '../../api/errors';
import { useSession } from '../../session/store';
import { useCompanyEvent, useRealtime } from '../../session/useRealtime';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import {
  applyTicketEvent,
  laneKey,
  lanesOf,
  laneOf,
  moved,
  OPEN_LANE,
  tagOfLane,
  type LaneKey,
} from './board';
import './i18n';

/** A card's height in a lane (the lanes are virtualised: any number of cards). */
const CARD_HEIGHT = 148;
const CARD_GAP = 8;
const OPEN_COLOR = '#5C6BC0';

interface Lane {
  key: LaneKey;
  name: string;
  color: string;
  tag: TagAnswer | null;
}

function TicketCard({
  ticket,
  provided,
  snapshot,
  style,
}: {
  ticket: KanbanTicket;
  provided: DraggableProvided;
  snapshot?: DraggableStateSnapshot;
  style?: CSSProperties;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div
      ref={provided.innerRef}
      {...provided.draggableProps}
      {...provided.dragHandleProps}
      style={{ ...provided.draggableProps.style, ...style }}
      data-testid={`kanban-card-${ticket.id}`}
      aria-label={`Ticket #${ticket.id} ${ticket.contact.name}`}
    >
      <Card
        variant="outlined"
        sx={{
          p: 1.25,
          height: CARD_HEIGHT,
          boxSizing: 'border-box',
          display: 'flex',
          flexDirection: 'column',
          gap: 0.25,
          boxShadow: snapshot?.isDragging ? 6 : 0,
          outlineOffset: -2,
        }}
      >
        <Typography variant="caption" color="text.secondary">
          Ticket #{ticket.id}
        </Typography>
        <Typography noWrap sx={{ fontWeight: 600 }}>
          {ticket.contact.name}
        </Typography>
        <Typography variant="body2" color="text.secondary" noWrap>
          {formatPhoneDisplay(ticket.contact.number)}
        </Typography>
        <Typography variant="body2" noWrap sx={{ flex: 1 }}>
          {ticket.lastMessage || t('kanban.noMessage')}
        </Typography>
        <Button
          size="small"
          variant="outlined"
          sx={{ alignSelf: 'flex-start' }}
          onClick={() => navigate(`/tickets/${ticket.uuid}`)}
        >
          {t('kanban.viewTicket')}
        </Button>
      </Card>
    </div>
  );
}

function LaneColumn({ lane, tickets }: { lane: Lane; tickets: KanbanTicket[] }) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement | null>(null);
  const renderClone = useCallback(
    (provided: DraggableProvided, snapshot: DraggableStateSnapshot, rubric: DraggableRubric) => (
      <TicketCard ticket={tickets[rubric.source.index]!} provided={provided} snapshot={snapshot} />
    ),
    [tickets],
  );
  return (
    <Paper
      variant="outlined"
      sx={{
        width: { xs: '82vw', sm: 300 },
        flex: '0 0 auto',
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
        maxHeight: '100%',
        bgcolor: 'action.hover',
      }}
      data-testid={`kanban-lane-${lane.key}`}
    >
      <Box
        sx={{
          px: 1.5,
          py: 1,
          bgcolor: lane.color,
          color: '#fff',
          textShadow: '0 0 2px rgba(0,0,0,.6)',
          borderTopLeftRadius: 4,
          borderTopRightRadius: 4,
          display: 'flex',
          alignItems: 'center',
          gap: 1,
        }}
      >
        <Typography sx={{ fontWeight: 600, flex: 1 }} noWrap component="h2">
          {lane.name}
        </Typography>
        <Typography variant="caption">{tickets.length}</Typography>
      </Box>
      <Droppable droppableId={lane.key} mode="virtual" renderClone={renderClone}>
        {(provided, snapshot) => (
          <VirtualCards
            tickets={tickets}
            extra={snapshot.isUsingPlaceholder ? 1 : 0}
            scroller={scroller}
            innerRef={provided.innerRef}
            droppableProps={provided.droppableProps}
            highlight={snapshot.isDraggingOver}
            empty={t('kanban.empty')}
          />
        )}
      </Droppable>
    </Paper>
  );
}

function VirtualCards({
  tickets,
  extra,
  scroller,
  innerRef,
  droppableProps,
  highlight,
  empty,
}: {
  tickets: KanbanTicket[];
  extra: number;
  scroller: React.RefObject<HTMLDivElement | null>;
  innerRef: (element: HTMLElement | null) => void;
  droppableProps: object;
  highlight: boolean;
  empty: string;
}) {
  const virtualizer = useVirtualizer({
    count: tickets.length + extra,
    getScrollElement: () => scroller.current,
    estimateSize: () => CARD_HEIGHT + CARD_GAP,
    overscan: 4,
    initialRect: { width: 300, height: 600 },
  });
  return (
    <Box
      ref={(element: HTMLDivElement | null) => {
        scroller.current = element;
        innerRef(element);
      }}
      {...droppableProps}
      sx={{
        flex: 1,
        overflowY: 'auto',
        minHeight: 160,
        p: 1,
        bgcolor: highlight ? 'action.selected' : undefined,
        transition: 'background-color .2s',
      }}
    >
      {tickets.length === 0 && !extra && (
        <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', mt: 2 }}>
          {empty}
        </Typography>
      )}
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const ticket = tickets[item.index];
          if (!ticket) return null;
          return (
            <Draggable key={ticket.id} draggableId={String(ticket.id)} index={item.index}>
              {(provided, snapshot) => (
                <TicketCard
                  ticket={ticket}
                  provided={provided}
                  snapshot={snapshot}
                  style={{
                    position: 'absolute',
                    top: item.start,
                    left: 0,
                    width: '100%',
                    height: CARD_HEIGHT,
                  }}
                />
              )}
            </Draggable>
          );
        })}
      </div>
    </Box>
  );
}

/**
 * Kanban (secondary §2, §4): 'Em aberto' (no kanban tag) and one lane per kanban tag in its colour;
 * cards of every ticket the user may see (of their queues); drag by mouse or keyboard moves the
 * ticket in one call that keeps its other tags; a move someone else made first answers 409 and
 * the card goes back. Other viewers see moves live (the ticket event).
 */
export default function KanbanPage() {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const navigate = useNavigate();
  const plan = useSession((s) => s.plan);
  const user = useSession((s) => s.user);
  const epoch = useRealtime((s) => s.resyncEpoch);
  const [tags, setTags] = useState<TagAnswer[]>([]);
  const [tickets, setTickets] = useState<KanbanTicket[]>([]);
  const [reloads, setReloads] = useState(0);
  const queueIds = useMemo(() => (user?.queues ?? []).map((q) => q.id), [user]);
  const allowed = !plan || plan.useKanban;

  useEffect(() => {
    if (plan && !plan.useKanban) {
      toast.error(t('kanban.noPlan'));
      const timer = setTimeout(() => navigate('/'), 1_000);
      return () => clearTimeout(timer);
    }
  }, [plan, navigate, t]);

  useEffect(() => {
    if (!allowed) return;
    let live = true;
    Promise.all([
      api.call(kanbanEndpoints.kanbanTags),
      api.call(kanbanEndpoints.kanbanTickets, {
        query: queueIds.length ? { queueIds: JSON.stringify(queueIds) as never } : {},
      }),
    ])
      .then(([lanes, board]) => {
        if (!live) return;
        setTags(lanes.lista);
        setTickets(board.tickets);
      })
      .catch((error: unknown) => live && showError(error));
    return () => {
      live = false;
    };
  }, [allowed, queueIds, epoch, reloads, showError]);

  useCompanyEvent('ticket', (payload) => {
    const event = ticketEvent.safeParse(payload);
    if (!event.success || event.data.action === 'updateUnread') return;
    setTickets((list) => applyTicketEvent(list, event.data as never, queueIds));
  });
  useCompanyEvent('tag', () => setReloads((n) => n + 1));

  const laneIds = useMemo(() => new Set(tags.map((tag) => tag.id)), [tags]);
  const lanes = useMemo<Lane[]>(
    () => [
      { key: OPEN_LANE, name: t('kanban.open'), color: OPEN_COLOR, tag: null },
      ...tags.map((tag) => ({ key: laneKey(tag.id), name: tag.name, color: tag.color, tag })),
    ],
    [tags, t],
  );
  const byLane = useMemo(() => lanesOf(tickets, tags), [tickets, tags]);

  const onDragEnd = async ({ source, destination, draggableId }: DropResult) => {
    if (!destination || destination.droppableId === source.droppableId) return;
    const ticketId = Number(draggableId);
    const ticket = tickets.find((x) => x.id === ticketId);
    if (!ticket) return;
    const fromTagId = laneOf(ticket, laneIds);
    const toTagId = tagOfLane(destination.droppableId);
    const target = toTagId == null ? null : (tags.find((g) => g.id === toTagId) ?? null);
    const before = tickets;
    // Optimistic: the card moves now and comes back if the server refuses.
    setTickets((list) =>
      list.map((x) =>
        x.id === ticketId
          ? moved(x, target && { id: target.id, name: target.name, color: target.color }, laneIds)
          : x,
      ),
    );
    try {
      await api.call(kanbanEndpoints.moveKanban, {
        params: { ticketId },
        body: { fromTagId, toTagId },
      });
      toast.success(t(toTagId == null ? 'kanban.removed' : 'kanban.added'));
    } catch (error) {
      setTickets(before);
      showError(error);
      if (error instanceof ApiError && error.status === 409) setReloads((n) => n + 1);
    }
  };

  return (
    <Box
      sx={{
        p: { xs: 1, sm: 2 },
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
      }}
    >
      <Stack direction="row" sx={{ alignItems: 'baseline', gap: 2, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h1">
          {t('kanban.title')}
        </Typography>
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ display: { xs: 'none', md: 'block' } }}
        >
          {t('kanban.dragHint')}
        </Typography>
      </Stack>
      <DragDropContext onDragEnd={(result) => void onDragEnd(result)}>
        <Box
          sx={{
            flex: 1,
            minHeight: 0,
            display: 'flex',
            gap: 1.5,
            overflowX: 'auto',
            pb: 1,
            alignItems: 'stretch',
          }}
          data-testid="kanban-board"
        >
          {lanes.map((lane) => (
            <LaneColumn key={lane.key} lane={lane} tickets={byLane.get(lane.key) ?? []} />
          ))}
        </Box>
      </DragDropContext>
    </Box>
  );
}
