import { describe, expect, it } from 'vitest';
import { admit } from './admission.js';
import { captureByRules } from './rules.js';
import { looksSpanish, statementBeforeRequestEs } from './spanish.js';
import { foldChatEs } from './spanish-user.js';

const learn = (text: string) => captureByRules({ text, role: 'user' }).map((c) => `${c.category}: ${c.text}`);

describe('rule capture in Spanish', () => {
  it('tells Spanish from English and Spanglish led by English', () => {
    expect(looksSpanish('Nunca hagas push a main directamente.')).toBe(true);
    expect(looksSpanish('Vivo en Cartagena.')).toBe(true);
    expect(looksSpanish('We use pnpm in this repo, not npm.')).toBe(false);
    expect(looksSpanish('Never push to main, use a PR.')).toBe(false);
  });

  it('learns rules, preferences, decisions, changes and facts, keeping their wording without the lead-in', () => {
    expect(learn('A partir de ahora, usa tabs en vez de espacios.')).toEqual(['rule: A partir de ahora, usa tabs en vez de espacios.']);
    expect(learn('Usamos pnpm en este repo, no npm')).toEqual(['rule: Usamos pnpm en este repo, no npm.']);
    expect(learn('oye, por cierto, no me gustan los emojis en los commits')).toEqual([
      'preference: No me gustan los emojis en los commits.',
    ]);
    expect(learn('Hemos decidido migrar a Postgres por fases.')).toEqual(['decision: Hemos decidido migrar a Postgres por fases.']);
    expect(learn('Me cambié a Helix.')).toEqual(['preference: Me cambié a Helix.']);
    expect(learn('Recuerda que mi cumpleaños es el 3 de mayo.')).toEqual(['fact: Mi cumpleaños es el 3 de mayo.']);
    expect(learn('Nuestra base de datos de staging está en el puerto 5433.')).toEqual([
      'fact: Nuestra base de datos de staging está en el puerto 5433.',
    ]);
  });

  it('learns the statement before a question or a request about it, and two-word statements', () => {
    expect(learn('tengo un iphone 13, cómo paso los contactos?')).toEqual(['fact: Tengo un iphone 13.']);
    expect(learn('el front lo tenemos en Vercel, dame un healthcheck para ahí')).toEqual(['fact: El front lo tenemos en Vercel.']);
    expect(learn('soy vegana')).toHaveLength(1);
    expect(learn('cancelamos datadog.')).toHaveLength(1);
    expect(learn('lo de los tests: que corran antes de cada commit, sin excepciones')).toHaveLength(1);
    expect(learn('vendí la moto y me compré una bici eléctrica')).toHaveLength(1);
    // A request for always is a standing preference, however it starts.
    expect(learn('mandame todo en listas cortitas, no me escribas testamentos que lo leo en el bondi')).toHaveLength(1);
  });

  it('learns a routine at a time of day, what is installed or managed with what, how someone gets around', () => {
    for (const text of [
      'entreno en el smart fit de la 70 a las 6 am',
      'laburo a la mañana en la escuela, entro a las 7:30',
      'tengo el jdk 11 instalado con sdkman, por si importa pa gradle',
      'manejo las versiones de flutter con fvm, cada proyecto tiene su .fvmrc',
      'me muevo en moto, una nkd 125, pa ir a la oficina',
      'en casa uso una notebook vieja con windows 10',
    ])
      expect(learn(text), text).toHaveLength(1);
  });

  it('learns a routine counted per week, month or year ("una vez al mes"), not a request for one', () => {
    expect(learn('mi suegra nos visita una vez al mes')).toHaveLength(1);
    expect(learn('¿me lo recordás una vez por semana?')).toEqual([]);
  });

  it('cuts off a question typed without its question mark', () => {
    expect(learn('el cliente se canso de firebase y lo pasamos a supabase, como hago el login con google')).toEqual([
      'preference: El cliente se canso de firebase y lo pasamos a supabase.',
    ]);
  });

  it('cuts a request off a statement told over two sentences without leaving the first period inside it', () => {
    expect(statementBeforeRequestEs('vendí la moto. me compré una bici, dame ideas de rutas')).toBe('vendí la moto, me compré una bici');
  });

  it('does not learn a complaint or an experience once its question or request is cut off', () => {
    expect(learn('nunca entiendo estos errores de typescript, que significa este?')).toEqual([]);
    expect(learn('siempre me olvido cómo se hace un rebase, explicamelo de nuevo')).toEqual([]);
    expect(learn('nunca he ido a Lima, que me recomiendas ver?')).toEqual([]);
  });

  it('learns routines, obligations, nicknames and changes told without a marker word', () => {
    expect(learn('la compra la hacemos los sábados en el mercado de abajo')).toHaveLength(1);
    expect(learn('los tests de integración tienen que correr con la VPN levantada')).toHaveLength(1);
    expect(learn('a mi abuelo le dicen Pepe')).toHaveLength(1);
    expect(learn('ya no tomo café, me pasé al té')).toHaveLength(1);
    expect(learn('el cilantro no lo soporto jaja')).toEqual(['preference: El cilantro no lo soporto.']);
  });

  it('learns how a team is set up, a household routine and a change told in the past tense', () => {
    expect(learn('los servicios los desplegamos con argo cd')).toHaveLength(1);
    expect(learn('el servicio de facturas en local levanta en el 8082')).toHaveLength(1);
    expect(learn('las alertas nos llegan por opsgenie')).toHaveLength(1);
    expect(learn('reporto a carla, la jefa de plataforma')).toHaveLength(1);
    expect(learn('voy a natación martes y jueves a las 8')).toHaveLength(1);
    expect(learn('hemos apagado jenkins del todo, el CI son workflows de github')).toHaveLength(1);
    expect(learn('le cambiaron el horario a lucas, ahora sale a las 17')).toHaveLength(1);
    // A change said with when it happened ("ya está", "ayer") is still a change, not a passing state.
    expect(learn('la api ya está en node 22, cambiamos la imagen ayer')).toHaveLength(1);
    for (const junk of [
      'a mi jefe hoy se le zafó un tornillo y me cambió todo el deadline',
      'me cambió todo el plan de hoy',
      'hoy usamos la rama de hotfix para probar',
    ]) {
      expect(learn(junk), junk).toEqual([]);
    }
  });

  it('learns the object told first and taken up by a pronoun, a process in the impersonal "se", and who someone is', () => {
    for (const text of [
      'el backend de la app lo corremos en fly.io',
      'a la gata la llevo al vete de la esquina',
      'la landing la estoy armando con astro',
      'las facturas se archivan en drive cada fin de mes',
      'soy profesora de primaria en Quilmes',
      'vivo con mi hermano y dos gatos',
      'nado 3 veces x semana en el club',
    ]) {
      expect(learn(text), text).toHaveLength(1);
    }
    // The same shapes about today or a plan are not standing facts.
    for (const junk of [
      'los tests de hoy los dejamos para la tarde',
      'el deploy lo hago mañana a primera hora',
      'las pruebas las corro después con calma',
    ]) {
      expect(learn(junk), junk).toEqual([]);
    }
  });

  it('learns a change told with any person and tense of a verb of taking up, dropping or replacing', () => {
    for (const text of [
      'cancelé spotify, no lo usaba',
      'adoptamos renovate para las dependencias',
      'he vendido la furgoneta',
      'nos hemos mudado a valencia',
      'mi hermana dejó el trabajo del banco',
      'actualizamos el cluster a kubernetes 1.29',
      'subí la cuota del gimnasio a 40 euros',
      'volví a firefox',
      'contratamos a una niñera para los martes',
      // What someone works with, after where: "para consultas rápidas ... uso psql".
      'en el portátil del curro programo con intellij',
      'para los informes semanales de ventas uso metabase',
      // A change that happened again is still a change; a question after a period is cut off.
      'otra vez cambiaron el horario del gimnasio: ahora abre a las 7',
      'por fin cambié la tele, me compré una lg de 55. cómo la conecto al wifi?',
    ]) {
      expect(learn(text), text).toHaveLength(1);
    }
    // Everyday work and what broke are no change of set-up; "vamos con" is the task of the moment.
    for (const junk of [
      'el build dejó de funcionar',
      'borré el archivo de config',
      'pasó algo raro con el deploy',
      'ahora vamos con el bug del login, empieza por el modelo',
    ]) {
      expect(learn(junk), junk).toEqual([]);
    }
  });

  it('learns the statement before an aside about the moment, unless only a rule word or "X es" without a value stands before it', () => {
    expect(learn('mi banco es el santander, ahí cobro la nómina')).toEqual(['fact: Mi banco es el santander.']);
    expect(learn('hemos migrado los logs a loki porque grafana ya lo incluía, revisa la config que me pasaste')).toEqual([
      'preference: Hemos migrado los logs a loki porque grafana ya lo incluía.',
    ]);
    // "X es" with a value (a host, a port, a version) is a set-up fact however loose the trigger.
    expect(learn('el api de prod es api.pagofacil.co, ojo con probar cosas ahi')).toEqual(['fact: El api de prod es api.pagofacil.co.']);
    for (const junk of [
      'siempre que corro los tests se cuelga, mira a ver que pasa',
      'el server de dev está caído, ahorita no puedo probar nada',
    ]) {
      expect(learn(junk), junk).toEqual([]);
    }
  });

  it('keeps requests, questions, chatter and what points into the conversation out', () => {
    for (const text of [
      'revisa si tengo actividades pendientes en SIMA',
      '¿Puedes revisar el log otra vez?',
      'ok perfecto, hazlo',
      'Siempre me pasa lo mismo con este router.',
      'El build falló otra vez.',
      'gracias',
      'cuál es mi color favorito? a ver si te acuerdas',
      'a partir de ahora y hasta que termines el refactor no corras los e2e',
      'ya está, funcionó!!',
      // Questions and requests typed without their marks.
      'cuanto es el 15% de 48000',
      'q hora es en madrid cuando aca son las 3pm',
      'cual es el atajo pa hacer hot restart en vscode',
      'explicame corto q es una value class en kotlin',
      'como configuro caddy con https',
    ]) {
      expect(admit({ text, source: 'user' }).admitted, text).toBe(false);
      expect(learn(text), text).toEqual([]);
    }
  });

  it('learns a value told after a long subject, a care routine, what someone cannot take, and a change said with "ya no", "dejamos" or "ahora"', () => {
    const cases: Array<[string, string]> = [
      ['el timeout del gateway de pagos es 30 segundos por request', 'fact: El timeout del gateway de pagos es 30 segundos por request.'],
      ['los servicios de cobranza escuchan en el puerto 9000', 'fact: Los servicios de cobranza escuchan en el puerto 9000.'],
      ['el worker de conciliacion apunta a la cola recon-jobs', 'fact: El worker de conciliacion apunta a la cola recon-jobs.'],
      ['los PR de infra necesitan 2 aprobaciones', 'fact: Los PR de infra necesitan 2 aprobaciones.'],
      ['para envios internacionales el courier es dhl', 'fact: Para envios internacionales el courier es dhl.'],
      ['yo marisco no como, me sienta fatal', 'fact: Yo marisco no como, me sienta fatal.'],
      ['el ibuprofeno no lo puedo tomar', 'fact: El ibuprofeno no lo puedo tomar.'],
      ['me mido la glucosa con un sensor dos veces al dia', 'fact: Me mido la glucosa con un sensor dos veces al dia.'],
      ['soy del grupo sanguineo 0 negativo', 'fact: Soy del grupo sanguineo 0 negativo.'],
      ['estoy en el equipo de plataforma de datos', 'fact: Estoy en el equipo de plataforma de datos.'],
      ['tengo fibra con digi en casa', 'fact: Tengo fibra con digi en casa.'],
      ['voy a clases de pilates en el centro civico', 'fact: Voy a clases de pilates en el centro civico.'],
      ['canto en el coro de la parroquia', 'fact: Canto en el coro de la parroquia.'],
      ['llevo audifono desde hace tres años', 'fact: Llevo audifono desde hace tres años.'],
      ['a la niña la recojo de la guarderia a las dos', 'fact: A la niña la recojo de la guarderia a las dos.'],
      ['Lucia, la novia de mi hijo, es fisio', 'fact: Lucia, la novia de mi hijo, es fisio.'],
      // "por eso" gives a reason; it points at nothing in the conversation.
      [
        'el topic de eventos tiene 6 particiones, por eso escala bien',
        'fact: El topic de eventos tiene 6 particiones, por eso escala bien.',
      ],
      ['dejamos gorm, ahora todos los repos estan con sqlc', 'preference: Dejamos gorm, ahora todos los repos estan con sqlc.'],
      ['ya no me pincho la insulina, ahora llevo bomba', 'preference: Ya no me pincho la insulina, ahora llevo bomba.'],
      [
        'me he dado de baja del gimnasio y he cogido la piscina municipal',
        'preference: Me he dado de baja del gimnasio y he cogido la piscina municipal.',
      ],
      ['lo dejamos en 20 el pool de conexiones', 'preference: Lo dejamos en 20 el pool de conexiones.'],
      ['ahora recojo el pan en la panaderia de la esquina', 'preference: Ahora recojo el pan en la panaderia de la esquina.'],
    ];
    for (const [text, memory] of cases) expect(learn(text), text).toEqual([memory]);
  });

  it('does not take a demonstrative "esta", an imperative or a state of this morning for a standing fact', () => {
    for (const text of [
      'mi wifi se desconecta cada 5 minutos desde esta mañana',
      'apunta leche y pan en la lista',
      'hacé que todos los botones de esta pantalla sean azules',
      'estoy en el aeropuerto y el vuelo va retrasado',
      'y ahora no me deja actualizar el whatsapp',
    ])
      expect(learn(text), text).toEqual([]);
  });

  it('cuts a question about the statement off it however it starts, and keeps a set-up or a date before an aside about now', () => {
    const cases: Array<[string, string]> = [
      ['para los tests usamos testify con suites, me generas uno para este repo?', 'preference: Para los tests usamos testify con suites.'],
      ['uso fish con starship, tienes algun alias para git?', 'preference: Uso fish con starship.'],
      ['yo no pruebo el cafe, con que me despierto por la mañana?', 'fact: Yo no pruebo el cafe.'],
      ['me he pasado a ibuprofeno de 400. se puede tomar con el estomago vacio?', 'preference: Me he pasado a ibuprofeno de 400.'],
      [
        'me llegó el portátil nuevo del curro, un dell con windows 11 :) como instalo wsl?',
        'preference: Me llegó el portátil nuevo del curro, un dell con windows 11.',
      ],
      ['la vecina del tercero, Pilar, es la que me cuida el gato', 'fact: La vecina del tercero, Pilar, es la que me cuida el gato.'],
      ['el santo de mi madre es el 15 de agosto, apuntalo que siempre se me olvida', 'fact: El santo de mi madre es el 15 de agosto.'],
      ['el servicio de facturas usa mongodb, no es mio pero me toca revisarlo esta semana', 'fact: El servicio de facturas usa mongodb.'],
      ['en el portatil del curro tengo ubuntu, ahi hago todo lo de docker', 'fact: En el portatil del curro tengo ubuntu.'],
      ['nuestros logs salen en formato json con el trace id', 'fact: Nuestros logs salen en formato json con el trace id.'],
      // However the last clause asks, a final "?" makes it the question.
      ['tengo un seat ibiza del 2009, le sale la luz del motor?', 'fact: Tengo un seat ibiza del 2009.'],
      ['mi perro se llama Bruno, le puedo dar pollo?', 'fact: Mi perro se llama Bruno.'],
    ];
    for (const [text, memory] of cases) expect(learn(text), text).toEqual([memory]);
    for (const text of ['usas vim o emacs, cual prefieres?', 'me recomiendas pnpm, es mejor?']) expect(learn(text), text).toEqual([]);
    // A pasted table before the question is not the user telling anything.
    const pasted =
      '| Caso | Va en | | --- | --- | | Resumen todos los dias a las 7 | job.json | | Avisos urgentes | HEARTBEAT |, esto lo pongo asi?';
    expect(learn(pasted)).toEqual([]);
  });

  it('learns who does a thing told object first, a set-up with "todavía", what someone tests on or eats, and more ways to tell a change', () => {
    const cases: Array<[string, string]> = [
      ['la reforma la dirige una amiga arquitecta, la caro', 'fact: La reforma la dirige una amiga arquitecta, la caro.'],
      ['a la perra la atiende el veterinario de la esquina', 'fact: A la perra la atiende el veterinario de la esquina.'],
      ['el backend guarda todo en postgres 16', 'fact: El backend guarda todo en postgres 16.'],
      ['la app todavia tiene minSdk 23', 'fact: La app todavia tiene minSdk 23.'],
      ['estoy con flutter 3.19 en el proyecto', 'fact: Estoy con flutter 3.19 en el proyecto.'],
      ['pruebo en el emulador de un pixel 8', 'fact: Pruebo en el emulador de un pixel 8.'],
      ['estoy comiendo sin gluten por el medico', 'fact: Estoy comiendo sin gluten por el medico.'],
      ['hice la portabilidad y ahora cobro en el santander', 'preference: Hice la portabilidad y ahora cobro en el santander.'],
      ['me reasignaron a 5to por una licencia', 'preference: Me reasignaron a 5to por una licencia.'],
      ['nacho largo el futbol', 'preference: Nacho largo el futbol.'],
      ['al final me decidi por el gris pa el living', 'decision: Al final me decidi por el gris para el living.'],
      ['despues de la reorganizacion le reporto a marta', 'preference: Despues de la reorganizacion le reporto a marta.'],
      ['pasamos la cache a isar', 'preference: Pasamos la cache a isar.'],
      // What goes wrong now, after "y me", is cut off the change.
      ['ya subimos el proyecto a go 1.23 y me estan saliendo warnings', 'preference: Ya subimos el proyecto a go 1.23.'],
    ];
    for (const [text, memory] of cases) expect(learn(text), text).toEqual([memory]);
    // "cómo" and a first-person verb asks how, typed without its marks.
    expect(learn('como registro un provider en riverpod')).toEqual([]);
  });

  it('reads chat shorthand spelt out, and learns lessons, decisions, conditions, hobbies and changes dated this month', () => {
    expect(foldChatEs('aprendi q x ahora tb conviene, xq 2 x 3 es 6')).toBe('aprendi que por ahora también conviene, porque 2 x 3 es 6');
    expect(learn('aprendi q con la low cost conviene llevar la valija chica, en el aeropuerto te cobran el doble')).toEqual([
      'lesson: Aprendi que con la low cost conviene llevar la valija chica, en el aeropuerto te cobran el doble.',
    ]);
    for (const text of [
      'decidi q este año no pido mas delivery entre semana',
      'tengo asma, uso el inhalador antes de correr',
      'toco la guitarra en una banda de cumbia los sabados',
      'cambiamos de mailchimp a brevo para el newsletter desde este mes',
      'ningun endpoint nuevo puede salir sin tests de contrato',
      'entiendo mucho mejor con diagramas q con texto largo',
      'ojo q la bd de qa se borra todos los lunes a las 6',
    ])
      expect(learn(text), text).toHaveLength(1);
    expect(learn('ojo q la bd de qa se borra todos los lunes a las 6')[0]).toMatch(/^\w+: La bd de qa se borra/);
  });

  it('keeps opinions of others, suppositions, the work to turn to, this task and things misbehaving out', () => {
    for (const text of [
      'mi cuñado dice q tendriamos q pasar todo a kotlin',
      'lei en reddit q deno es el futuro',
      'imaginate q tengo una cafeteria en el centro',
      'y si usamos redis en vez de memcached',
      'a partir de ahora nos enfocamos en el bug del carrito',
      'para esta tarea usa solo bash, nada de python',
      'nunca entendi bien como funciona el monotributo',
      'esa version no me gusta, mostrame otra',
      'deje la migracion a medias, mañana la sigo',
      'cada vez q hago npm install se queda colgado, q onda',
    ])
      expect(learn(text), text).toEqual([]);
    // What a doctor told the user, and the change that followed an opinion, stay.
    expect(learn('la veterinaria dice q esta gordo asi q lo pase a un alimento light')).toHaveLength(1);
  });
});
