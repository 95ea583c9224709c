import { helpEndpoints, youtubeEmbed, youtubeThumbnail, type HelpAnswer } from '@atende/shared';
import Close from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import CardMedia from '@mui/material/CardMedia';
import Dialog from '@mui/material/Dialog';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { PageHeader } from '../../kit/PageHeader';
import { PageFrame } from '../../kit/ScrollPaper';
import { useErrorToast } from '../../ui/useErrorToast';
import './i18n';

/**
 * Helps page (/helps, secondary §2): a grid of video cards (thumbnail, title, description), the
 * count in the title; a card opens the video in a modal player that Escape closes. Thumbnails come
 * from img.youtube.com and the player is YouTube's privacy-enhanced (no-cookie) embed.
 */
export default function HelpsPage() {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const [helps, setHelps] = useState<HelpAnswer[] | null>(null);
  const [playing, setPlaying] = useState<HelpAnswer | null>(null);

  useEffect(() => {
    api.call(helpEndpoints.helpList).then(setHelps, (error: unknown) => {
      setHelps([]);
      showError(error);
    });
  }, [showError]);

  return (
    <PageFrame>
      <PageHeader title={t('helpsPage.title', { count: helps?.length ?? 0 })} />
      <Box sx={{ flex: 1, minHeight: 0, overflowY: 'auto', p: 0.5 }}>
        {helps?.length === 0 && (
          <Typography color="text.secondary">{t('helpsPage.empty')}</Typography>
        )}
        <Grid container spacing={2}>
          {helps?.map((help) => (
            <Grid key={help.id} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
              <Card variant="outlined" sx={{ height: '100%' }} data-testid={`help-card-${help.id}`}>
                <CardActionArea
                  onClick={() => setPlaying(help)}
                  aria-label={t('helpsPage.play', { title: help.title })}
                  sx={{
                    height: '100%',
                    display: 'flex',
                    flexDirection: 'column',
                    alignItems: 'stretch',
                  }}
                >
                  <CardMedia
                    component="img"
                    image={youtubeThumbnail(help.video)}
                    alt=""
                    loading="lazy"
                    referrerPolicy="no-referrer"
                    sx={{ aspectRatio: '16 / 9', objectFit: 'cover', bgcolor: 'action.hover' }}
                  />
                  <CardContent sx={{ flex: 1 }}>
                    <Typography variant="subtitle1" component="h2" gutterBottom>
                      {help.title}
                    </Typography>
                    <Typography
                      variant="body2"
                      color="text.secondary"
                      sx={{ whiteSpace: 'pre-line' }}
                    >
                      {help.description}
                    </Typography>
                  </CardContent>
                </CardActionArea>
              </Card>
            </Grid>
          ))}
        </Grid>
      </Box>
      <Dialog
        open={playing !== null}
        onClose={() => setPlaying(null)}
        maxWidth="md"
        fullWidth
        aria-label={playing?.title}
        slotProps={{ paper: { sx: { bgcolor: 'common.black', position: 'relative' } } }}
      >
        <IconButton
          aria-label={t('helpsPage.close')}
          onClick={() => setPlaying(null)}
          sx={{ position: 'absolute', top: 4, right: 4, zIndex: 1, color: 'common.white' }}
        >
          <Close />
        </IconButton>
        {playing && (
          <Box
            component="iframe"
            data-testid="help-player"
            src={youtubeEmbed(playing.video)}
            title={playing.title}
            allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
            allowFullScreen
            referrerPolicy="strict-origin-when-cross-origin"
            sx={{ border: 0, width: '100%', aspectRatio: '16 / 9', display: 'block' }}
          />
        )}
      </Dialog>
    </PageFrame>
  );
}
